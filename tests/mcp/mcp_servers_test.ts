/** MCP approvals: states, the SQLite store, tool names and compact schemas. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteMcpApprovals } from "../../src/adapters/sqlite/mcp_approvals.ts";
import { configSchema } from "../../src/config/schema.ts";
import { mcpServerStatuses, mcpToolSource } from "../../src/mcp/mcp_servers.ts";
import { compactSchema, mcpToolName, resultText } from "../../src/mcp/mcp_tools.ts";
import { tempHome, toolDeps } from "../tools/tool_harness.ts";
import { approvalOf, MemoryApprovals } from "./mcp_harness.ts";

const listed = [{ name: "list", description: "Lists.", inputSchema: { type: "object" as const } }];

Deno.test("a config server runs only with an approval of its exact command line", async () => {
  const config = configSchema.parse({
    mcp: {
      servers: [
        { name: "files", command: ["mcp-files", "/notes"], folders: ["/notes"] },
        { name: "fresh", command: ["other"] },
      ],
    },
  });
  const approvals = new MemoryApprovals();
  approvals.save({ ...approvalOf("files", ["mcp-files", "/notes"]), tools: listed });
  approvals.save({ ...approvalOf("added", ["tool-server"]), tools: listed });
  const states = mcpServerStatuses(config, approvals)
    .map((status) => `${status.name}:${status.state}:${status.origin}`);
  assert.deepEqual(states, ["files:approved:config", "fresh:pending:config", "added:approved:cli"]);

  config.mcp.servers[0].command = ["mcp-files", "/"]; // edited after approval
  const changed = mcpServerStatuses(config, approvals);
  assert.equal(changed[0].state, "changed");
  const home = tempHome();
  try {
    const source = mcpToolSource({ ...toolDeps(home), config }, approvals);
    const names = source.tools.map((tool) => tool.name);
    assert.ok(!names.includes("mcp_files__list"), "a changed server offers no tools");
    assert.ok(source.problems.some((line) => /files is changed/.test(line)));
    assert.ok(source.problems.some((line) => /fresh is not approved/.test(line)));
    await source.close();
  } finally {
    home.dispose();
  }
});

Deno.test("the config refuses a server with both or neither command and url", () => {
  for (const server of [{ name: "x" }, { name: "x", command: ["a"], url: "http://h/" }]) {
    assert.equal(configSchema.safeParse({ mcp: { servers: [server] } }).success, false);
  }
});

Deno.test("approvals survive in SQLite (migration 012)", () => {
  const home = tempHome();
  try {
    const db = openDatabase(join(home.dataDir, "radar.db"));
    const store = new SqliteMcpApprovals(db);
    const approval = {
      ...approvalOf("files", ["srv", "--x"], { folders: ["/a"], env: ["TOKEN"] }),
      tools: listed,
    };
    store.save(approval);
    assert.deepEqual(store.get("files"), approval);
    assert.equal(store.list().length, 1);
    assert.equal(store.remove("files"), true);
    assert.equal(store.remove("files"), false);
    db.close();
  } finally {
    home.dispose();
  }
});

Deno.test("tool names are prefixed and cleaned; schemas are compact and capped", () => {
  assert.equal(mcpToolName("files", "read-file.v2"), "mcp_files__read_file_v2");
  assert.ok(mcpToolName("s", "x".repeat(200)).length <= 64);
  const schema = compactSchema({
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { path: { type: "string", description: "p".repeat(500) } },
  }, 2000);
  assert.equal(schema.$schema, undefined);
  const path = (schema.properties as Record<string, { description: string }>).path;
  assert.ok(path.description.length <= 80);
  const huge = { type: "object", properties: { a: { enum: Array(1000).fill("value") } } };
  assert.deepEqual(compactSchema(huge, 2000), { type: "object", additionalProperties: true });
  assert.deepEqual(compactSchema("nonsense", 2000), {
    type: "object",
    additionalProperties: true,
  });
});

Deno.test("results keep text, name other content, and are cut", () => {
  const text = resultText({
    content: [
      { type: "text", text: "hello\u0007" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
  }, 100);
  assert.equal(text, "hello\n[image omitted]");
  assert.match(resultText({ content: [{ type: "text", text: "z".repeat(50) }] }, 10), /cut/);
});
