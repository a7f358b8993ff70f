import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { Hono } from "hono";
import { RadarError } from "../../src/core/errors.ts";
import { serveApp, startWebServer } from "../../web/server.ts";

async function runtimeIn(directory: string, configText: string) {
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(configPath, configText);
  return await openRadar({
    configPath,
    env: { HOME: directory, RADAR_DATA_DIR: join(directory, "data") },
    cwd: directory,
    logLevel: "error",
  });
}

/** A GET over a raw socket, so the Host header is exactly what a rebound DNS name would send. */
async function rawRequest(port: number, host: string): Promise<string> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  await connection.write(
    new TextEncoder().encode(`GET /memory HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
  );
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(65536);
  while (true) {
    const read = await connection.read(buffer);
    if (read === null) break;
    chunks.push(buffer.slice(0, read));
  }
  connection.close();
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
}

Deno.test("startWebServer serves the dashboard from a real runtime on a loopback port", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-web-server-" });
  const runtime = await runtimeIn(directory, 'llm:\n  base_url: "http://127.0.0.1:9"\n');
  const server = startWebServer({ runtime, host: "127.0.0.1", port: 0 });
  try {
    assert.equal(server.url, `http://127.0.0.1:${server.port}/`);
    const health = await fetch(`${server.url}health`);
    assert.deepEqual((await health.json()).ok, true);
    const htmx = await fetch(`${server.url}static/vendor/htmx.min.js`);
    assert.equal(htmx.status, 200);
    assert.ok((await htmx.text()).length > 40_000);
    runtime.facts.addFact({ category: "learned_fact", content: "served over HTTP" }, new Date());
    const anonymous = await fetch(`${server.url}memory`);
    assert.equal(anonymous.status, 401, "loopback needs a login too");
    await anonymous.body?.cancel();
    // The generated token: owner-only in the data folder, used as a bearer by scripts.
    const tokenFile = join(directory, "data", "dashboard_token");
    assert.equal(Deno.statSync(tokenFile).mode! & 0o777, 0o600);
    const token = Deno.readTextFileSync(tokenFile).trim();
    assert.ok(token.length >= 40);
    const memory = await fetch(`${server.url}memory`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.match(await memory.text(), /served over HTTP/);
    // The login link: a one-time code that becomes the session cookie.
    const link = server.loginLink();
    assert.match(link, new RegExp(`^${server.url}login\\?code=`));
    assert.ok(!link.includes(token), "the link never carries the token");
    const login = await fetch(link, { redirect: "manual" });
    assert.equal(login.status, 303);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    assert.match(cookie, new RegExp(`^radar_session_${server.port}=`));
    await login.body?.cancel();
    const page = await fetch(`${server.url}memory`, { headers: { Cookie: cookie } });
    assert.match(await page.text(), /served over HTTP/);
    const reused = await fetch(link, { redirect: "manual" });
    assert.equal(reused.status, 401);
    await reused.body?.cancel();
    assert.match(await rawRequest(server.port, "attacker.example"), /^HTTP\/1\.1 421/);
    assert.match(await rawRequest(server.port, `localhost:${server.port}`), /^HTTP\/1\.1 401/);
  } finally {
    await server.close();
    runtime.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("a bind on another loopback address (127.0.0.2) answers its own Host", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-web-server-" });
  const runtime = await runtimeIn(directory, 'llm:\n  base_url: "http://127.0.0.1:9"\n');
  const server = startWebServer({ runtime, host: "127.0.0.2", port: 0 });
  try {
    assert.equal(server.url, `http://127.0.0.2:${server.port}/`);
    const health = await fetch(`${server.url}health`);
    assert.equal(health.status, 200, "a loopback bind answers requests to its own address");
    await health.body?.cancel();
    const token = Deno.readTextFileSync(join(directory, "data", "dashboard_token")).trim();
    const memory = await fetch(`${server.url}memory`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(memory.status, 200);
    await memory.body?.cancel();
  } finally {
    await server.close();
    runtime.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("startWebServer refuses a non-loopback bind without a token and requires it with one", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-web-server-" });
  const open = await runtimeIn(directory, "web:\n  host: 0.0.0.0\n");
  try {
    assert.throws(
      () => startWebServer({ runtime: open, host: "0.0.0.0", port: 0 }),
      /Cannot serve the dashboard on 0\.0\.0\.0: binding beyond 127\.0\.0\.1 needs web\.auth_token/,
    );
  } finally {
    open.close();
  }
  const guarded = await runtimeIn(
    directory,
    'web:\n  host: 0.0.0.0\n  auth_token: "t0ken-for-lan-0123456789ab"\n',
  );
  const controller = new AbortController();
  const server = startWebServer({
    runtime: guarded,
    host: "0.0.0.0",
    port: 0,
    signal: controller.signal,
  });
  try {
    const anonymous = await fetch(`http://127.0.0.1:${server.port}/history`);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const scripted = await fetch(`http://127.0.0.1:${server.port}/history`, {
      headers: { Authorization: "Bearer t0ken-for-lan-0123456789ab" },
    });
    assert.equal(scripted.status, 200);
    await scripted.body?.cancel();
  } finally {
    controller.abort();
    await server.close();
    guarded.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("serveApp says plainly when the port is taken", () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    assert.throws(
      () => serveApp(new Hono().fetch, { host: "127.0.0.1", port }),
      (error: Error) => {
        assert.ok(error instanceof RadarError);
        assert.equal(
          error.message,
          `Cannot serve the dashboard on 127.0.0.1:${port}: the port is in use (another radar ` +
            `serve, or another program). Choose one with --port or web.port.`,
        );
        return true;
      },
    );
  } finally {
    taken.close();
  }
});
