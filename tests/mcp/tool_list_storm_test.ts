/**
 * A server that floods notifications/tools/list_changed must not get one concurrent tools/list
 * (and one comparison, warning and database write) per notification: listings run one at a
 * time, and notifications that came meanwhile make one more.
 */
import assert from "node:assert/strict";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpServerConnection } from "../../src/mcp/server_connection.ts";

Deno.test("a flood of tools/list_changed notifications runs one listing at a time", async () => {
  const server = new Server({ name: "flood", version: "1.0.0" }, {
    capabilities: { tools: { listChanged: true } },
  });
  let listings = 0;
  let running = 0;
  let mostAtOnce = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    listings++;
    mostAtOnce = Math.max(mostAtOnce, ++running);
    await new Promise((resolve) => setTimeout(resolve, 20));
    running--;
    return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
  });
  server.setRequestHandler(CallToolRequestSchema, async () => {
    for (let index = 0; index < 100; index++) await server.sendToolListChanged();
    return { content: [{ type: "text", text: "flooded" }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  let listed = 0;
  const connection = new McpServerConnection({
    name: "flood",
    timeoutMs: 5000,
    open: () => clientSide,
    onToolsListed: () => listed++,
  });
  try {
    await connection.callTool("flood", {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(mostAtOnce, 1, `${mostAtOnce} listings ran at once`);
    assert.ok(listings <= 4, `${listings} listings for one burst of notifications`);
    assert.ok(listed >= 2, "the list is compared at start and again after the notifications");
  } finally {
    await connection.close();
    await server.close();
  }
});

Deno.test("tools/list_changed notifications do not keep an idle server running", async () => {
  const server = new Server({ name: "chatty", version: "1.0.0" }, {
    capabilities: { tools: { listChanged: true } },
  });
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
  );
  let ticker: ReturnType<typeof setInterval> | undefined;
  server.setRequestHandler(CallToolRequestSchema, () => {
    // After answering, the server keeps announcing changes every 20 ms.
    ticker = setInterval(() => void server.sendToolListChanged().catch(() => {}), 20);
    return { content: [{ type: "text", text: "ok" }] };
  });
  let closed = false;
  server.onclose = () => closed = true;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connection = new McpServerConnection({
    name: "chatty",
    timeoutMs: 5000,
    idleMs: 100,
    open: () => clientSide,
    onToolsListed: () => {},
  });
  try {
    await connection.callTool("echo", {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(closed, "stopped after 100 ms without calls, notifications or not");
  } finally {
    clearInterval(ticker);
    await connection.close();
    await server.close();
  }
});
