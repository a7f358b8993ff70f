/**
 * A server that changes its tools after approval (notifications/tools/list_changed): Radar lists
 * them again, offers no new tool, refuses the changed ones and flags the server for re-approval.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteMcpApprovals } from "../../src/adapters/sqlite/mcp_approvals.ts";
import { configSchema } from "../../src/config/schema.ts";
import { toolChanges } from "../../src/mcp/approval.ts";
import { mcpServerStatuses, mcpToolSource } from "../../src/mcp/mcp_servers.ts";
import { mcpServerViews } from "../../src/mcp/mcp_views.ts";
import { mcpHealth } from "../../src/sources/source_health.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import { startHostile } from "./hostile_harness.ts";
import { approvalOf, runTool } from "./mcp_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "a server that adds and rewrites tools after approval is flagged; only unchanged tools run",
  async fn() {
    const h = await startHostile();
    try {
      const mutated = await runTool(h.tools, "mcp_evil__mutate", {});
      assert.equal(mutated.text, "mutated");
      await until(() => h.approvals.get("evil")?.toolChanges !== undefined, "the flag");
      assert.deepEqual(h.approvals.get("evil")?.toolChanges, ["echo: changed", "sneaky: new"]);
      const echo = await runTool(h.tools, "mcp_evil__echo", { text: "hi" });
      assert.equal(echo.outcome, "refused");
      assert.match(
        echo.text,
        /changed its tool echo since it was approved.*radar mcp approve evil/,
      );
      assert.ok(!h.source.tools.some((tool) => tool.name === "mcp_evil__sneaky"), "not offered");
      const instance = await runTool(h.tools, "mcp_evil__instance", {});
      assert.equal(instance.outcome, "ok", "an unchanged approved tool still runs");
      const [status] = mcpServerStatuses(configSchema.parse({}), h.approvals);
      assert.deepEqual(status.toolChanges, ["echo: changed", "sneaky: new"]);
      const [record] = mcpHealth(mcpServerViews(configSchema.parse({}), h.approvals));
      assert.equal(record.state, "failing");
      assert.match(
        sourceHealthLines([record]).join("\n"),
        /evil: FAILING \(\d+ tools\): tools changed since approval: echo: changed, sneaky: new \(radar mcp approve evil\)/,
      );
    } finally {
      await h.source.close();
      h.home.dispose();
    }
  },
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name:
    "a server that changed before it started (an updated package) is caught before the first call",
  async fn() {
    const h = await startHostile();
    try {
      await h.source.close();
      // As if the approved version described echo differently from the one installed now.
      const approval = h.approvals.get("evil")!;
      h.approvals.save({
        ...approval,
        tools: approval.tools.map((tool) =>
          tool.name === "echo" ? { ...tool, description: "Echoes its text, approved." } : tool
        ),
      });
      const source = mcpToolSource(h.deps, h.approvals);
      try {
        const echo = await runTool(source.tools, "mcp_evil__echo", { text: "hi" });
        assert.equal(echo.outcome, "refused", echo.text);
        assert.deepEqual(h.approvals.get("evil")?.toolChanges, ["echo: changed"]);
        const instance = await runTool(source.tools, "mcp_evil__instance", {});
        assert.equal(instance.outcome, "ok");
      } finally {
        await source.close();
      }
    } finally {
      h.home.dispose();
    }
  },
}));

Deno.test("tool changes: new, changed (description or schema), removed; key order ignored", () => {
  const tool = (name: string, description: string, properties: Record<string, unknown>) => ({
    name,
    description,
    inputSchema: { type: "object" as const, properties },
  });
  const approved = [
    tool("echo", "Echoes", { text: { type: "string" }, n: { type: "number" } }),
    tool("gone", "Old", {}),
    tool("same", "Same", {}),
  ];
  assert.deepEqual(
    toolChanges(approved, [
      tool("echo", "Echoes", { n: { type: "number" }, text: { type: "string" } }),
      tool("gone", "Old", {}),
      tool("same", "Same", {}),
    ]),
    [],
  );
  assert.deepEqual(
    toolChanges(approved, [
      tool("echo", "Echoes", { text: { type: "string" }, url: { type: "string" } }),
      tool("same", "Same", {}),
      tool("added", "New", {}),
    ]),
    ["added: new", "echo: changed", "gone: removed"],
  );
});

Deno.test("the SQLite approvals keep the flag until the server is approved again", () => {
  const db = openDatabase(":memory:");
  try {
    const approvals = new SqliteMcpApprovals(db);
    approvals.save(approvalOf("files", ["server"]));
    assert.equal(approvals.get("files")?.toolChanges, undefined);
    approvals.markToolsChanged("files", ["x: new"], new Date("2026-11-23T12:00:00Z"));
    assert.deepEqual(approvals.get("files")?.toolChanges, ["x: new"]);
    assert.equal(approvals.get("files")?.toolsChangedAt, "2026-11-23T12:00:00.000Z");
    approvals.save(approvalOf("files", ["server"]));
    assert.equal(approvals.get("files")?.toolChanges, undefined, "re-approval clears it");
  } finally {
    db.close();
  }
});
