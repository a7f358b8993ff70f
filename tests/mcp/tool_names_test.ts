/**
 * Issue 23, class 9: MCP tool names are unambiguous. Two servers (`notes`, `notes_search`) whose
 * tools (`search_x`, `x`) used to give the same `mcp_notes_search_x` get different names, so a
 * call always reaches the server whose tool the model chose.
 */
import assert from "node:assert/strict";
import { mcpToolName } from "../../src/mcp/mcp_tools.ts";
import { validateConfig } from "../../src/config/loader.ts";

Deno.test("tools of servers whose names share a prefix never get the same name", () => {
  const names = new Set<string>();
  const pairs: Array<[string, string]> = [
    ["notes", "search_x"],
    ["notes_search", "x"],
    ["notes", "search__x"],
    ["notes_search_x", "y"],
    ["notes", "search_x_y"],
    ["a", "b_c"],
    ["a_b", "c"],
  ];
  for (const [server, tool] of pairs) names.add(mcpToolName(server, tool));
  assert.equal(names.size, pairs.length, [...names].join(" "));
});

Deno.test("a server name that would make names ambiguous is refused in one line", () => {
  for (const name of ["notes_", "no__tes", "_notes"]) {
    assert.throws(
      () =>
        validateConfig({ mcp: { servers: [{ name, command: ["x"] }] } }, {
          path: "/cfg/radar.yaml",
          env: {},
          cwd: "/",
          warnings: [],
        }),
      /mcp\.servers\[0\]\.name/,
      name,
    );
  }
});
