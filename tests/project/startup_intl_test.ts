/**
 * The start-up rule "no Intl.DateTimeFormat before the first request" (ARCHITECTURE.md), checked
 * on a real `radar ask` with radar.timezone set: a preloaded probe reports every construction that
 * happens before the first /api/chat fetch (the first one costs 15–30 ms of ICU loading).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { radarCommand } from "../helpers/radar_process.ts";

const probe = `
let requested = false;
const Original = Intl.DateTimeFormat;
const Probe = function (...args) {
  if (!requested) {
    const where = (new Error().stack ?? "").split("\\n").slice(2, 4).join(" <- ").trim();
    console.error("RADAR-PROBE Intl.DateTimeFormat before the first request: " + where);
  }
  return new Original(...args);
};
Intl.DateTimeFormat = Probe;
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.includes("/api/chat")) requested = true;
  return originalFetch(input, init);
};
`;

Deno.test("radar ask with radar.timezone set builds no Intl.DateTimeFormat before its first request", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-startup-intl-" });
  let chats = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      await request.text();
      if (path === "/api/chat") chats++;
      if (path === "/api/show") return Response.json({ model_info: { "x.context_length": 8192 } });
      return Response.json({ message: { role: "assistant", content: "ok" }, done: true });
    },
  );
  try {
    const probePath = join(home, "probe.js");
    Deno.writeTextFileSync(probePath, probe);
    const config = join(home, "radar.yaml");
    Deno.writeTextFileSync(config, "radar:\n  timezone: Europe/Berlin\n");
    const output = await radarCommand(home, ["ask", "hello"], {
      runFlags: ["--preload", probePath],
      env: {
        RADAR_CONFIG: config,
        RADAR_LLM_BASE_URL: `http://127.0.0.1:${server.addr.port}`,
      },
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.ok(chats >= 1, "the model was asked");
    assert.deepEqual(stderr.split("\n").filter((line) => line.includes("RADAR-PROBE")), []);
  } finally {
    await server.shutdown();
    Deno.removeSync(home, { recursive: true });
  }
});
