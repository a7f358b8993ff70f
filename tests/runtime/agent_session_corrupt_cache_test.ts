/**
 * A startup cache with the right key but a broken inside (hand-edited, or written by a bug) costs
 * one full start, never a failure: the session falls back and rewrites the cache.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openAgentSession } from "../../src/runtime/agent_session.ts";
import {
  readStartupCache,
  type StartupCache,
  startupCachePath,
  writeStartupCache,
} from "../../src/runtime/startup_cache.ts";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";

const breakages: Array<[string, (cache: StartupCache) => void]> = [
  ["an empty config", (cache) => (cache.loaded as { config: unknown }).config = {}],
  ["an llm section of the wrong type", (cache) => {
    (cache.loaded.config as unknown as { llm: unknown }).llm = "ollama";
  }],
  ["warnings that are not a list", (cache) => {
    (cache.loaded as { warnings: unknown }).warnings = 3;
  }],
  ["a base URL that is a number", (cache) => {
    (cache.loaded.config.llm as unknown as { base_url: unknown }).base_url = 11434;
  }],
  ["a catalog entry without a name", (cache) => {
    (cache.tools as unknown[]).push({ description: 7 });
  }],
];

Deno.test("agent session: a cache with the right key but a broken inside falls back to a full start", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-corrupt-cache-" });
  const server = FakeLlmServer.start();
  const env = { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: server.url };
  Deno.writeTextFileSync(join(home, "radar.yaml"), "radar:\n  nmae: Typo\n");
  const logged: string[] = [];
  const open = () =>
    openAgentSession({
      env,
      cwd: home,
      logLevel: "warn",
      logWriters: [(line) => logged.push(line)],
    });
  const path = startupCachePath(env);
  try {
    (await open()).close();
    const good = readStartupCache(path)!;
    for (const [what, breakIt] of breakages) {
      const broken = structuredClone(good);
      breakIt(broken);
      assert.equal(writeStartupCache(path, broken), undefined);
      logged.length = 0;
      const session = await open().catch((error) => assert.fail(`${what}: ${error}`));
      try {
        assert.equal(session.quickStart, false, what);
        assert.match(session.agent().systemPrompt(), /You are Radar/, what);
        assert.equal(logged.filter((line) => /nmae/.test(line)).length, 1, `${what}: warned once`);
      } finally {
        session.close();
      }
      assert.deepEqual(readStartupCache(path), good, `${what}: the cache is rewritten`);
    }
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});
