/** A streamable HTTP MCP server: reached only at its approved host. */
import assert from "node:assert/strict";
import { discoverTools } from "../../src/mcp/mcp_servers.ts";
import { guardedMcpFetch } from "../../src/mcp/http_guard.ts";
import { startHttpMcpServer } from "../fixtures/mcp/http_server.ts";
import { tempHome, toolDeps } from "../tools/tool_harness.ts";
import { approvalOf, approveAndOpen, MemoryApprovals, runTool } from "./mcp_harness.ts";

Deno.test("an approved HTTP server's tools run through the registry", async () => {
  const server = startHttpMcpServer();
  const home = tempHome();
  try {
    const deps = toolDeps(home);
    const approval = approvalOf("web", [], { url: server.url, hosts: ["127.0.0.1"] });
    const source = await approveAndOpen(deps, new MemoryApprovals(), approval);
    const shout = await runTool(source.tools, "mcp_web__shout", { text: "hello" });
    assert.equal(shout.text, "HELLO");
    assert.equal(source.tools[0].source, "mcp:web");
    await source.close();
  } finally {
    home.dispose();
    await server.close();
  }
});

Deno.test("an HTTP server at a host that is not approved is never contacted", async () => {
  const server = startHttpMcpServer();
  const home = tempHome();
  try {
    const approval = approvalOf("web", [], { url: server.url, hosts: ["mcp.example.com"] });
    await assert.rejects(discoverTools(toolDeps(home), approval), /not an approved host/);
    assert.equal(server.requests(), 0);
  } finally {
    home.dispose();
    await server.close();
  }
});

Deno.test("an approved public name that resolves to a private address is refused", async () => {
  let fetched = 0;
  const fetcher = guardedMcpFetch(["mcp.example.com"], () => {
    fetched++;
    return Promise.resolve(new Response("{}"));
  }, () => Promise.resolve(["10.0.0.7"]));
  await assert.rejects(fetcher("https://mcp.example.com/mcp"), (error: Error) => {
    assert.match(error.message, /10\.0\.0\.7, a private address/);
    assert.match(error.message, /by its address or localhost in its url/, "the MCP way out");
    assert.doesNotMatch(error.message, /fetch_url/, "not fetch_url's setting");
    return true;
  });
  assert.equal(fetched, 0);
});

Deno.test("an HTTP response larger than the cap fails the call", async () => {
  const fetcher = guardedMcpFetch(
    ["127.0.0.1"],
    () => Promise.resolve(new Response("x".repeat(5000))),
    undefined,
    1000,
  );
  const response = await fetcher("http://127.0.0.1:1/mcp");
  await assert.rejects(response.text(), /more than 1000 bytes/);
});

Deno.test("an HTTP server's connection goes to the address that was checked (DNS rebinding)", async () => {
  // The first answer is public; every later lookup answers loopback (a rebinding DNS server).
  let lookups = 0;
  const resolve = (host: string) => {
    assert.equal(host, "mcp.example.com");
    return Promise.resolve(lookups++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]);
  };
  const connections: string[] = [];
  // Without pinning, fetch resolves the name again itself (as the OS would) and connects there.
  const plain = async (url: string | URL | Request) => {
    const [address] = await resolve(new URL(String(url)).hostname);
    connections.push(`unpinned ${address}`);
    return new Response("{}");
  };
  const pinned = (url: URL, address: string) => {
    connections.push(`pinned ${address} ${url.hostname}`);
    return Promise.resolve({ response: new Response("{}"), close: () => {} });
  };
  const fetcher = guardedMcpFetch(["mcp.example.com"], plain, resolve, 1000, pinned);
  const response = await fetcher("https://mcp.example.com/mcp", { method: "POST" });
  assert.equal(await response.text(), "{}");
  assert.deepEqual(connections, ["pinned 93.184.216.34 mcp.example.com"]);
  // The next request is checked again: now loopback, refused before any connection.
  await assert.rejects(fetcher("https://mcp.example.com/mcp"), /private|internal|local|loopback/i);
  assert.deepEqual(connections.length, 1);
});
