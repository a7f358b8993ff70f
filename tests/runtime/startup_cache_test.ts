import assert from "node:assert/strict";
import { join } from "node:path";
import {
  pluginStamp,
  readStartupCache,
  type StartupCache,
  startupCachePath,
  startupKey,
  writeStartupCache,
} from "../../src/runtime/startup_cache.ts";
import { defaultConfig } from "../../src/config/schema.ts";

Deno.test("startup cache key: changes with the config text, its path, the cwd and config env vars only", () => {
  const env = { HOME: "/home/a", RADAR_LLM_MODEL: "qwen3" };
  const file = { path: "/home/a/radar.yaml", text: "llm:\n  model: x\n" };
  const key = startupKey(file, env, "/home/a");
  assert.equal(startupKey(file, env, "/home/a"), key, "stable");
  assert.notEqual(startupKey({ ...file, text: "llm:\n  model: y\n" }, env, "/home/a"), key);
  assert.notEqual(startupKey({ ...file, path: "/etc/radar.yaml" }, env, "/home/a"), key);
  assert.notEqual(startupKey(file, env, "/tmp"), key);
  assert.notEqual(startupKey(file, { ...env, RADAR_LLM_MODEL: "llama3.1" }, "/home/a"), key);
  assert.notEqual(startupKey(file, { ...env, XDG_DATA_HOME: "/data" }, "/home/a"), key);
  assert.equal(startupKey(file, { ...env, TERM: "xterm" }, "/home/a"), key, "unrelated vars");
  assert.notEqual(startupKey({}, env, "/home/a"), key, "embedded defaults are their own key");
});

Deno.test("startup cache: written owner-only and atomically, read back; junk reads as absent", () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-cache-" });
  try {
    const path = startupCachePath({ HOME: home });
    assert.equal(path, join(home, ".cache", "radar", "startup.json"));
    assert.equal(startupCachePath({ HOME: home, XDG_CACHE_HOME: "/x" }), "/x/radar/startup.json");
    assert.equal(readStartupCache(path), undefined, "absent");
    const cache: StartupCache = {
      key: "k",
      loaded: { config: defaultConfig(), dataDir: join(home, "data"), warnings: [] },
      plugins: "",
      tools: [{ name: "recall", description: "Search memory", parameters: {}, source: "builtin" }],
      quickStart: true,
      skills: { stamp: "", list: [] },
    };
    assert.equal(writeStartupCache(path, cache), undefined);
    assert.deepEqual(readStartupCache(path), cache);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    assert.equal(Deno.statSync(join(home, ".cache", "radar")).mode! & 0o777, 0o700);
    assert.deepEqual([...Deno.readDirSync(join(home, ".cache", "radar"))].length, 1, "no temp");
    Deno.writeTextFileSync(path, '{"key": 1}');
    assert.equal(readStartupCache(path), undefined, "wrong shape");
    Deno.writeTextFileSync(path, "{not json");
    assert.equal(readStartupCache(path), undefined, "not JSON");
    Deno.chmodSync(join(home, ".cache", "radar"), 0o500);
    if (Deno.uid() !== 0) {
      assert.match(writeStartupCache(path, cache) ?? "", /Cannot write the startup cache/);
    }
  } finally {
    Deno.chmodSync(join(home, ".cache", "radar"), 0o700);
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("plugin stamp: changes when a plugin is enabled or one of its files changes", () => {
  const data = Deno.makeTempDirSync({ prefix: "radar-stamp-" });
  try {
    assert.equal(pluginStamp(data), "", "no plugins folder");
    const folder = join(data, "plugins", "available", "weather");
    Deno.mkdirSync(folder, { recursive: true });
    Deno.mkdirSync(join(data, "plugins", "enabled"));
    Deno.writeTextFileSync(join(folder, "tool.ts"), "export function a() {}");
    const none = pluginStamp(data);
    Deno.symlinkSync("../available/weather", join(data, "plugins", "enabled", "weather"));
    const enabled = pluginStamp(data);
    assert.notEqual(enabled, none);
    Deno.writeTextFileSync(join(folder, "tool.ts"), "export function a() { return 1; }");
    assert.notEqual(pluginStamp(data), enabled, "an edited file (size) changes the stamp");
  } finally {
    Deno.removeSync(data, { recursive: true });
  }
});

Deno.test("plugin stamp: changes when a file in a plugin's subfolder is edited in place", () => {
  const data = Deno.makeTempDirSync({ prefix: "radar-stamp-" });
  try {
    const folder = join(data, "plugins", "available", "weather");
    Deno.mkdirSync(join(folder, "lib"), { recursive: true });
    Deno.mkdirSync(join(data, "plugins", "enabled"));
    Deno.writeTextFileSync(join(folder, "tool.ts"), "export { a } from './lib/a.ts';");
    Deno.writeTextFileSync(join(folder, "lib", "a.ts"), "export function a() {}");
    Deno.symlinkSync("../available/weather", join(data, "plugins", "enabled", "weather"));
    const before = pluginStamp(data);
    Deno.writeTextFileSync(join(folder, "lib", "a.ts"), "export function a() { return 1; }");
    assert.notEqual(pluginStamp(data), before);
  } finally {
    Deno.removeSync(data, { recursive: true });
  }
});
