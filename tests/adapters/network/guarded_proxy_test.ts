/**
 * The browser's guarded proxy over raw sockets: it wants its password, asks the guard for every
 * target, connects to the address the guard returned (never to what DNS says later), forwards
 * plain http in origin form on a connection of its own, and refuses what the guard refuses.
 */
import assert from "node:assert/strict";
import { startGuardedProxy } from "../../../src/adapters/network/guarded_proxy.ts";
import type { UrlCheck } from "../../../src/adapters/network/network_guard.ts";
import {
  checkUrlWithAllowance,
  hostAllowance,
} from "../../../src/adapters/network/host_allowance.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Sends `text` on a new connection to `port`, then `after` once the proxy said "established";
 * reads until the peer closes.
 */
async function exchange(port: number, text: string, after?: string): Promise<string> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  await connection.write(encoder.encode(text));
  let received = "";
  const buffer = new Uint8Array(16384);
  let sentAfter = false;
  try {
    while (true) {
      const read = await connection.read(buffer);
      if (read === null) break;
      received += decoder.decode(buffer.subarray(0, read));
      if (after && !sentAfter && /200 Connection established\r\n\r\n$/.test(received)) {
        sentAfter = true;
        await connection.write(encoder.encode(after));
      }
    }
  } catch { /* reset by the peer */ }
  try {
    connection.close();
  } catch { /* closed by the peer */ }
  return received;
}

/** A TCP server answering every line with "echo: line". */
function echoServer(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  (async () => {
    for await (const connection of listener) {
      (async () => {
        const buffer = new Uint8Array(1024);
        const read = await connection.read(buffer).catch(() => null);
        if (read) {
          await connection.write(
            encoder.encode(`echo: ${decoder.decode(buffer.subarray(0, read))}`),
          );
        }
        connection.close();
      })().catch(() => {});
    }
  })().catch(() => {});
  return { port: (listener.addr as Deno.NetAddr).port, close: () => listener.close() };
}

function auth(proxy: { username: string; password: string }): string {
  return `Proxy-Authorization: Basic ${btoa(`${proxy.username}:${proxy.password}`)}\r\n`;
}

Deno.test("the proxy wants its password, tunnels to the checked address, refuses the rest", async () => {
  const echo = echoServer();
  const asked: string[] = [];
  const refused: string[] = [];
  // The guard pins pinned.test to 127.0.0.1 (a name no DNS here knows) and refuses inside.test.
  const check = (url: URL): Promise<UrlCheck> => {
    asked.push(url.host);
    return Promise.resolve(
      url.hostname === "pinned.test" ? { addresses: ["127.0.0.1"] } : { problem: "not allowed" },
    );
  };
  const proxy = startGuardedProxy({
    check,
    refused: (target, problem) => refused.push(`${target} ${problem}`),
  });
  const port = Number(new URL(proxy.url).port);
  try {
    const anonymous = await exchange(port, `CONNECT pinned.test:${echo.port} HTTP/1.1\r\n\r\n`);
    assert.match(anonymous, /^HTTP\/1\.1 407 /);
    assert.deepEqual(asked, [], "nothing is checked or dialled without the password");

    const tunnel = await exchange(
      port,
      `CONNECT pinned.test:${echo.port} HTTP/1.1\r\n${auth(proxy)}\r\n`,
      "ping\n",
    );
    assert.match(tunnel, /^HTTP\/1\.1 200 Connection established\r\n\r\necho: ping\n$/);

    const inward = await exchange(port, `CONNECT inside.test:22 HTTP/1.1\r\n${auth(proxy)}\r\n`);
    assert.match(inward, /^HTTP\/1\.1 403 Forbidden/);
    assert.match(inward, /Refused by Radar's network guard: not allowed/);
    assert.deepEqual(refused, ["inside.test:22 not allowed"]);

    const odd = await exchange(port, `CONNECT /etc/passwd HTTP/1.1\r\n${auth(proxy)}\r\n`);
    assert.match(odd, /^HTTP\/1\.1 403 /);
    const https = await exchange(port, `GET https://pinned.test/ HTTP/1.1\r\n${auth(proxy)}\r\n`);
    assert.match(https, /^HTTP\/1\.1 403 /, "https comes by CONNECT only");
  } finally {
    proxy.close();
    echo.close();
  }
});

Deno.test("plain http goes out in origin form, one request per connection, without the proxy's password", async () => {
  const seen: { url: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push({ url: request.url, headers: request.headers });
    return new Response("hello", { headers: { "keep-alive": "timeout=5" } });
  });
  const proxy = startGuardedProxy({
    check: (url) =>
      Promise.resolve(
        url.hostname === "site.test" ? { addresses: ["127.0.0.1"] } : { problem: "no" },
      ),
  });
  const port = Number(new URL(proxy.url).port);
  try {
    const answer = await exchange(
      port,
      `GET http://site.test:${server.addr.port}/page?q=1 HTTP/1.1\r\nHost: site.test:${server.addr.port}\r\n` +
        `${auth(proxy)}Proxy-Connection: keep-alive\r\nConnection: keep-alive\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 200 OK/);
    assert.match(answer, /\r\nConnection: close\r\n/i);
    assert.doesNotMatch(answer, /keep-alive/i);
    assert.match(answer, /hello$/);
    assert.equal(seen.length, 1);
    assert.equal(new URL(seen[0].url).pathname + new URL(seen[0].url).search, "/page?q=1");
    assert.equal(seen[0].headers.get("host"), `site.test:${server.addr.port}`);
    assert.equal(seen[0].headers.get("proxy-authorization"), null);
    assert.equal(seen[0].headers.get("connection"), "close");
  } finally {
    proxy.close();
    await server.shutdown();
  }
});

Deno.test("host allowance: listed names, addresses and ranges; everything else private is refused", async () => {
  const allowed = hostAllowance(["router.lan", "192.168.1.0/24", "127.0.0.1", "fd00::1"]);
  assert.ok(allowed("router.lan"));
  assert.ok(allowed("ROUTER.LAN."));
  assert.ok(allowed("192.168.1.77"));
  assert.ok(!allowed("192.168.2.1"));
  assert.ok(allowed("127.0.0.1"));
  assert.ok(!allowed("127.0.0.2"));
  assert.ok(allowed("[fd00::1]"));
  assert.ok(!allowed("example.org"));
  const names: Record<string, string[]> = {
    "router.lan": ["10.9.9.9"],
    "nas.example": ["192.168.1.5"],
    "db.example": ["10.0.0.5"],
    "www.example": ["93.184.216.34"],
  };
  const check = (text: string, allowPrivate = false) =>
    checkUrlWithAllowance(new URL(text), {
      allowPrivate,
      allowed,
      resolve: (host) => Promise.resolve(names[host] ?? []),
      allowHint: "browser.allowed_hosts",
    });
  assert.deepEqual(await check("http://router.lan/"), { addresses: ["10.9.9.9"] });
  assert.deepEqual(await check("http://nas.example/"), { addresses: ["192.168.1.5"] });
  assert.deepEqual(await check("http://www.example/"), { addresses: ["93.184.216.34"] });
  assert.deepEqual(await check("http://127.0.0.1:8080/"), { addresses: ["127.0.0.1"] });
  assert.match(
    (await check("http://db.example/")).problem ?? "",
    /10\.0\.0\.5, a private address \(browser\.allowed_hosts\)/,
  );
  assert.match((await check("http://127.0.0.2/")).problem ?? "", /loopback/);
  assert.match((await check("http://localhost/")).problem ?? "", /loopback/);
  assert.match((await check("ftp://www.example/")).problem ?? "", /only http and https/);
  assert.match((await check("http://user:pw@www.example/")).problem ?? "", /user name or password/);
  assert.deepEqual(await check("http://db.example/", true), { addresses: ["10.0.0.5"] });
  const local = hostAllowance(["localhost"]);
  assert.deepEqual(
    await checkUrlWithAllowance(new URL("http://localhost:3000/"), {
      allowPrivate: false,
      allowed: local,
      resolve: () => Promise.resolve([]),
      allowHint: "x",
    }),
    { addresses: ["127.0.0.1"] },
  );
});
