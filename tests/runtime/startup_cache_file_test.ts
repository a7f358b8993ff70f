/**
 * The startup cache file holds config secrets and decides which server the first request goes
 * to: it is written without following planted links and read only when nobody else could have
 * written or swapped it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  readStartupCache,
  type StartupCache,
  startupCachePath,
  writeStartupCache,
} from "../../src/runtime/startup_cache.ts";
import { defaultConfig } from "../../src/config/schema.ts";

function sampleCache(home: string): StartupCache {
  const config = defaultConfig();
  config.llm.api_key = "sk-secret";
  return {
    key: "k",
    loaded: { config, dataDir: join(home, "data"), warnings: [] },
    plugins: "",
    tools: [{ name: "recall", description: "Search memory", parameters: {}, source: "builtin" }],
    quickStart: true,
    skills: { stamp: "", list: [] },
  };
}

function withHome(test: (home: string, path: string) => void): void {
  const home = Deno.makeTempDirSync({ prefix: "radar-cache-file-" });
  try {
    test(home, startupCachePath({ HOME: home }));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

Deno.test("startup cache: a link planted at the temp path is not followed", () => {
  withHome((home, path) => {
    Deno.mkdirSync(join(home, ".cache", "radar"), { recursive: true });
    const victim = join(home, "victim.txt");
    Deno.writeTextFileSync(victim, "precious");
    Deno.symlinkSync(victim, `${path}.${Deno.pid}.tmp`);
    assert.equal(writeStartupCache(path, sampleCache(home)), undefined);
    assert.equal(Deno.readTextFileSync(victim), "precious", "the link's target is untouched");
    assert.deepEqual(readStartupCache(path), sampleCache(home));
  });
});

Deno.test("startup cache: a file others could write, or a link, is not trusted", () => {
  withHome((home, path) => {
    assert.equal(writeStartupCache(path, sampleCache(home)), undefined);
    assert.ok(readStartupCache(path), "owner-only: read");
    for (const mode of [0o620, 0o602, 0o644]) {
      Deno.chmodSync(path, mode);
      assert.equal(readStartupCache(path), undefined, `mode ${mode.toString(8)}`);
    }
    Deno.chmodSync(path, 0o600);
    const folder = join(home, ".cache", "radar");
    for (const mode of [0o770, 0o1777]) {
      Deno.chmodSync(folder, mode);
      assert.equal(readStartupCache(path), undefined, `folder mode ${mode.toString(8)}`);
    }
    Deno.chmodSync(folder, 0o700);
    const elsewhere = join(home, "planted.json");
    Deno.renameSync(path, elsewhere);
    Deno.chmodSync(elsewhere, 0o666);
    Deno.symlinkSync(elsewhere, path);
    assert.equal(readStartupCache(path), undefined, "a link to a writable file");
    if (Deno.uid() === 0) {
      Deno.removeSync(path);
      Deno.renameSync(elsewhere, path);
      Deno.chmodSync(path, 0o600);
      Deno.chownSync(path, 65534, 65534);
      assert.equal(readStartupCache(path), undefined, "owned by another user");
    }
  });
});

Deno.test("startup cache: an oversized file is not read", () => {
  withHome((home, path) => {
    assert.equal(writeStartupCache(path, sampleCache(home)), undefined);
    const text = Deno.readTextFileSync(path);
    Deno.writeTextFileSync(path, text + " ".repeat(17 * 1024 * 1024));
    assert.equal(readStartupCache(path), undefined);
  });
});

Deno.test("startup cache: a FIFO at the cache path is never opened (opening it would block)", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-cache-fifo-" });
  const path = startupCachePath({ HOME: home });
  let writer: Deno.ChildProcess | undefined;
  try {
    assert.equal(writeStartupCache(path, sampleCache(home)), undefined);
    const valid = join(home, "valid.json");
    Deno.renameSync(path, valid);
    const made = await new Deno.Command("mkfifo", { args: ["-m", "600", path] }).output();
    assert.ok(made.success, "mkfifo");
    // Feeds a valid cache to whoever opens the FIFO: a reader that opened it would accept it.
    writer = new Deno.Command("sh", {
      args: ["-c", 'cat "$1" > "$2"', "sh", valid, path],
      stdout: "null",
      stderr: "null",
    }).spawn();
    assert.equal(readStartupCache(path), undefined);
  } finally {
    writer?.kill("SIGKILL");
    await writer?.status;
    Deno.removeSync(home, { recursive: true });
  }
});
