/**
 * fetch_url connects to the address it checked: one DNS answer per hop, and the connection (http
 * through Deno's tcp transport, https through a one-request CONNECT proxy with the certificate
 * still verified against the name) goes to that address, whatever DNS says a moment later.
 */
import assert from "node:assert/strict";
import { fetchUrlTool } from "../../src/tools/fetch_url.ts";
import { startPinnedProxy } from "../../src/adapters/network/connect_proxy.ts";
import { createPinnedFetch, type PinnedFetch } from "../../src/adapters/network/pinned_fetch.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

const tls = new URL("./fetch_url_tls/", import.meta.url);
const caPem = Deno.readTextFileSync(new URL("ca.pem", tls));
const certPem = Deno.readTextFileSync(new URL("cert.pem", tls));
const keyPem = Deno.readTextFileSync(new URL("key.pem", tls));

function site(secure: boolean) {
  const hosts: string[] = [];
  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      onListen() {},
      ...(secure ? { cert: certPem, key: keyPem } : {}),
    },
    (request) => {
      hosts.push(new URL(request.url).host);
      return new Response(`<html><title>Pinned</title><body>reached ${request.url}</body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  );
  return { server, hosts, port: server.addr.port };
}

/** A resolver that answers `first` once, then `later` (a rebinding DNS server). */
function rebinding(first: string, later: string) {
  const asked: string[] = [];
  const resolve = (host: string) => {
    asked.push(host);
    return Promise.resolve([asked.length === 1 ? first : later]);
  };
  return { resolve, asked };
}

Deno.test("http: fetch_url resolves once and connects to that address, Host keeps the name", async () => {
  const home = tempHome();
  const { server, hosts, port } = site(false);
  try {
    // rebind.test exists in no DNS: the old code let fetch resolve it again (and fail, or worse).
    const dns = rebinding("127.0.0.1", "203.0.113.9");
    const tool = fetchUrlTool(
      toolDeps(home, (config) => config.tools.fetch_url.allow_private = true),
      dns.resolve,
    );
    const result = await call(tool, { url: `http://rebind.test:${port}/page` });
    assert.equal(result.outcome, "ok", result.text);
    assert.match(result.text, /reached http:\/\/rebind\.test:\d+\/page/);
    assert.deepEqual(hosts, [`rebind.test:${port}`]);
    assert.deepEqual(dns.asked, ["rebind.test"], "one DNS answer, used for the connection");
  } finally {
    await server.shutdown();
    home.dispose();
  }
});

Deno.test("https: TLS to the checked address, certificate verified against the URL's name", async () => {
  const { server, port } = site(true);
  const pinned = createPinnedFetch(fetch, [caPem]);
  try {
    const good = await pinned(new URL(`https://pinned.test:${port}/x`), "127.0.0.1", {});
    try {
      assert.equal(good.response.status, 200);
      assert.match(await good.response.text(), /reached https:\/\/pinned\.test:\d+\/x/);
    } finally {
      good.close();
    }
    await assert.rejects(
      pinned(new URL(`https://other.test:${port}/x`), "127.0.0.1", {}),
      "a certificate for another name is refused",
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("https through the tool: one DNS answer, tunnel to it", async () => {
  const home = tempHome();
  const { server, port } = site(true);
  try {
    const dns = rebinding("127.0.0.1", "203.0.113.9");
    const tool = fetchUrlTool(
      toolDeps(home, (config) => config.tools.fetch_url.allow_private = true),
      dns.resolve,
      createPinnedFetch(fetch, [caPem]),
    );
    const result = await call(tool, { url: `https://pinned.test:${port}/secure` });
    assert.equal(result.outcome, "ok", result.text);
    assert.match(result.text, /Title: Pinned/);
    assert.deepEqual(dns.asked, ["pinned.test"]);
  } finally {
    await server.shutdown();
    home.dispose();
  }
});

Deno.test("public names: the connection goes to the checked public address, never re-resolved", async () => {
  const home = tempHome();
  try {
    const dns = rebinding("93.184.216.34", "127.0.0.1");
    const connects: string[] = [];
    const spy: PinnedFetch = (url, address) => {
      connects.push(`${url.hostname} -> ${address}`);
      return Promise.resolve({
        response: new Response("hello", { headers: { "content-type": "text/plain" } }),
        close: () => {},
      });
    };
    const tool = fetchUrlTool(toolDeps(home), dns.resolve, spy);
    const result = await call(tool, { url: "https://rebind.example/" });
    assert.equal(result.outcome, "ok", result.text);
    assert.deepEqual(connects, ["rebind.example -> 93.184.216.34"]);
    assert.deepEqual(dns.asked, ["rebind.example"]);
  } finally {
    home.dispose();
  }
});

Deno.test("the CONNECT proxy serves only its client, only for the checked target", async () => {
  const proxy = startPinnedProxy({ host: "pinned.test", port: 443 }, "127.0.0.1");
  const ask = async (head: string) => {
    const port = Number(new URL(proxy.url).port);
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    await connection.write(new TextEncoder().encode(head));
    const buffer = new Uint8Array(200);
    const read = await connection.read(buffer);
    connection.close();
    return new TextDecoder().decode(buffer.subarray(0, read ?? 0));
  };
  try {
    const auth = `Proxy-Authorization: Basic ${btoa(`radar:${proxy.password}`)}`;
    assert.match(await ask("CONNECT pinned.test:443 HTTP/1.1\r\n\r\n"), /403/, "no password");
    assert.match(
      await ask(`CONNECT 10.0.0.1:22 HTTP/1.1\r\n${auth}\r\n\r\n`),
      /403/,
      "another target",
    );
    assert.match(
      await ask(`GET http://pinned.test/ HTTP/1.1\r\n${auth}\r\n\r\n`),
      /403/,
      "not CONNECT",
    );
  } finally {
    proxy.close();
  }
});
