/** The MCP section of /plugins: read-only, escaped, never the whole command line. */
import assert from "node:assert/strict";
import { configSchema } from "../../src/config/schema.ts";
import { mcpServerViews } from "../../src/mcp/mcp_views.ts";
import { mcpHealth } from "../../src/sources/source_health.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import { createWebFixture } from "../web/web_fixture.ts";
import { approvalOf, MemoryApprovals } from "./mcp_harness.ts";

Deno.test("server views show the program's name, not its arguments", () => {
  const config = configSchema.parse({
    mcp: { servers: [{ name: "gh", command: ["/usr/bin/gh-mcp", "--token", "ghp_secret"] }] },
  });
  const approvals = new MemoryApprovals();
  approvals.save(approvalOf("files", ["/opt/fs-server", "/notes"], { folders: ["/notes"] }));
  const views = mcpServerViews(config, approvals);
  assert.deepEqual(views.map((view) => [view.name, view.program, view.state]), [
    ["gh", "gh-mcp", "pending"],
    ["files", "fs-server", "approved"],
  ]);
  assert.ok(!JSON.stringify(views).includes("ghp_secret"));
  assert.match(views[1].grants, /\/notes; no network; no env/);
  const statusLines = (servers: typeof views) =>
    sourceHealthLines(mcpHealth(servers)).filter((line) => !line.startsWith("sources:"));
  assert.deepEqual(statusLines(views), [
    "mcp:       2 server(s)",
    "  gh: not used: not approved yet (radar mcp approve gh)",
    "  files: ok (0 tools, /notes; no network; no env)",
  ]);
  assert.deepEqual(statusLines(mcpServerViews(configSchema.parse({}), new MemoryApprovals())), []);
});

Deno.test("/plugins lists MCP servers read-only and escaped", async () => {
  const fixture = createWebFixture({
    extra: {
      mcpServers: () =>
        Promise.resolve([
          { name: "files", program: "fs", state: "approved", grants: "/notes", tools: 3 },
          {
            name: "x",
            program: "<script>alert(1)</script>",
            state: "pending",
            grants: "",
            tools: 0,
          },
          {
            name: "notes",
            program: "notes-mcp",
            state: "approved",
            grants: "",
            tools: 2,
            toolChanges: ["mutate: new", "echo: changed"],
          },
        ]),
    },
  });
  try {
    const html = await (await fixture.app.request("/plugins")).text();
    assert.match(html, /<h2>MCP servers<\/h2>/);
    assert.match(html, /files<\/td><td>fs<\/td><td>approved/);
    assert.match(html, /pending: run radar mcp approve x/);
    assert.ok(!html.includes("<script>alert(1)"));
    assert.match(
      html,
      /notes<\/td><td>notes-mcp<\/td><td>needs re-approval: run radar mcp approve notes/,
    );
    assert.match(html, /Tools changed since approval \(mutate: new, echo: changed\)/);
    assert.match(html, /radar mcp approve\s*notes/);
  } finally {
    fixture.close();
  }
});
