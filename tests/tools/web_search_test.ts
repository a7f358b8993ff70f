import assert from "node:assert/strict";
import { webSearchTool } from "../../src/tools/web_search.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

function startSearchServer() {
  const requests: Array<{ path: string; query: string; token: string | null }> = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const url = new URL(request.url);
    const token = request.headers.get("x-subscription-token");
    requests.push({ path: url.pathname, query: url.searchParams.get("q") ?? "", token });
    if (url.pathname === "/search") {
      return Response.json({
        results: [
          { title: "Deno", url: "https://deno.com", content: "A <b>modern</b> runtime &amp; more" },
          { title: "Deno docs", url: "https://docs.deno.com", content: "Docs" },
          { title: "Third", url: "https://example.com/3", content: "" },
        ],
      });
    }
    if (url.pathname === "/res/v1/web/search") {
      if (token !== "brave-key-123") return new Response("bad key", { status: 401 });
      return Response.json({
        web: { results: [{ title: "Brave hit", url: "https://b.example", description: "Snip" }] },
      });
    }
    return new Response("no", { status: 404 });
  });
  return { server, requests, base: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("web_search with searxng returns a compact numbered list", async () => {
  const home = tempHome();
  const fake = startSearchServer();
  try {
    const tool = webSearchTool(toolDeps(home, (c) => {
      c.tools.web_search.provider = "searxng";
      c.tools.web_search.url = fake.base;
      c.tools.web_search.max_results = 2;
    }));
    const result = await call(tool, { query: "deno runtime" });
    assert.equal(
      result.text,
      "1. Deno\n   https://deno.com\n   A modern runtime & more\n2. Deno docs\n   https://docs.deno.com\n   Docs",
    );
    assert.equal(fake.requests[0].query, "deno runtime");
  } finally {
    await fake.server.shutdown();
    home.dispose();
  }
});

Deno.test("web_search with brave takes the key from api_key_cmd and hides it in errors", async () => {
  const home = tempHome();
  const fake = startSearchServer();
  try {
    const brave = (command: string) =>
      webSearchTool(toolDeps(home, (c) => {
        c.tools.web_search.provider = "brave";
        c.tools.web_search.url = fake.base;
        c.tools.web_search.api_key_cmd = command;
      }, { env: { PATH: Deno.env.get("PATH") } }));
    let result = await call(brave("echo brave-key-123"), { query: "q" });
    assert.equal(result.text, "1. Brave hit\n   https://b.example\n   Snip");
    assert.equal(fake.requests.at(-1)!.token, "brave-key-123");
    result = await call(brave("echo wrong-key-456"), { query: "q" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /^brave answered 401 \(check the API key\)/);
    assert.doesNotMatch(result.text, /wrong-key-456/);
    result = await call(brave("exit 3"), { query: "q" });
    assert.match(
      result.text,
      /Cannot get the Brave API key from tools\.web_search\.api_key_cmd: exit code 3/,
    );
  } finally {
    await fake.server.shutdown();
    home.dispose();
  }
});

Deno.test("web_search not configured names the config key", async () => {
  const home = tempHome();
  try {
    let result = await call(webSearchTool(toolDeps(home)), { query: "x" });
    assert.match(result.text, /set tools\.web_search\.provider/);
    result = await call(
      webSearchTool(toolDeps(home, (c) => c.tools.web_search.provider = "searxng")),
      { query: "x" },
    );
    assert.match(result.text, /set tools\.web_search\.url/);
    result = await call(
      webSearchTool(toolDeps(home, (c) => c.tools.web_search.provider = "brave")),
      { query: "x" },
    );
    assert.match(result.text, /set tools\.web_search\.api_key or api_key_cmd/);
  } finally {
    home.dispose();
  }
});
