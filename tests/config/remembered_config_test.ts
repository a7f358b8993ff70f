/**
 * The remembered config (src/config/remembered_config.ts): the same result as validating, used
 * only under its own key (file bytes, env overrides, the schema), ignored when altered.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { loadConfig, type LoadOptions } from "../../src/config/loader.ts";
import { loadRememberedConfig, rememberedConfigName } from "../../src/config/remembered_config.ts";
import { readTextFileIfExists } from "../../src/config/config_file.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { fingerprintModule, fingerprintPath } from "../../scripts/config_fingerprint.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** A home with a data folder and radar.yaml holding `text`. */
function home(text: string) {
  const dir = Deno.makeTempDirSync({ prefix: "radar-remembered-" });
  const dataDir = join(dir, "data");
  Deno.mkdirSync(dataDir);
  const configPath = join(dir, "radar.yaml");
  Deno.writeTextFileSync(configPath, text);
  const options = (env: Record<string, string> = {}): LoadOptions => ({
    env: { HOME: dir, RADAR_CONFIG: configPath, RADAR_DATA_DIR: dataDir, ...env },
    cwd: dir,
    readTextFile: readTextFileIfExists,
  });
  const entryPath = join(dataDir, rememberedConfigName);
  return { dir, dataDir, configPath, entryPath, options };
}

/** Rewrites the entry's body with `change`, its digest kept (`resign`: recomputed as Radar does). */
function alterEntry(path: string, change: (body: string) => string, resign: boolean) {
  const entry = JSON.parse(Deno.readTextFileSync(path));
  entry.body = change(entry.body);
  if (resign) {
    entry.digest = createHash("sha256").update(`${entry.key}\n${entry.body}`).digest("hex");
  }
  Deno.writeTextFileSync(path, JSON.stringify(entry));
}

const config = "radar:\n  name: Ada\nllm:\n  model: qwen3\nbudget:\n  tokens_per_day: 5\n";

Deno.test("a remembered config is exactly what validation gives, warnings and unknown keys too", async () => {
  const { dir, entryPath, options } = home(config);
  try {
    const fresh = loadConfig(options());
    assert.deepEqual(fresh.unknownKeys?.map((key) => key.path), ["budget.tokens_per_day"]);
    const first = await loadRememberedConfig(options());
    assert.deepStrictEqual(first, fresh);
    assert.ok(Deno.statSync(entryPath).isFile, "the first load remembers its result");
    assert.equal((Deno.statSync(entryPath).mode ?? 0) & 0o777, 0o600);
    const second = await loadRememberedConfig(options());
    assert.deepStrictEqual(second, fresh);
    // And it came from the entry: an entry re-signed as Radar signs it is what is returned.
    alterEntry(entryPath, (body) => body.replace('"name":"Ada"', '"name":"Remembered"'), true);
    assert.equal((await loadRememberedConfig(options())).config.radar.name, "Remembered");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the entry lives in the data folder radar.data_dir names, when the environment names none", async () => {
  const { dir, dataDir, configPath, entryPath, options } = home("");
  try {
    Deno.writeTextFileSync(configPath, `radar:\n  name: Ada\n  data_dir: ${dataDir}\n`);
    const { RADAR_DATA_DIR: _, ...env } = options().env;
    const withoutVariable: LoadOptions = { ...options(), env };
    const fresh = loadConfig(withoutVariable);
    assert.equal(fresh.dataDir, dataDir);
    assert.deepStrictEqual(await loadRememberedConfig(withoutVariable), fresh);
    alterEntry(entryPath, (body) => body.replace('"name":"Ada"', '"name":"Remembered"'), true);
    assert.equal((await loadRememberedConfig(withoutVariable)).config.radar.name, "Remembered");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a data_dir the text does not spell out is found by validating: the same result each time", async () => {
  const { dir, dataDir, configPath, options } = home("");
  try {
    Deno.writeTextFileSync(configPath, `radar:\n  "data\\x5fdir": ${dataDir}\n`);
    const { RADAR_DATA_DIR: _, ...env } = options().env;
    const withoutVariable: LoadOptions = { ...options(), env };
    const fresh = loadConfig(withoutVariable);
    assert.equal(fresh.dataDir, dataDir);
    for (let run = 0; run < 2; run++) {
      assert.deepStrictEqual(await loadRememberedConfig(withoutVariable), fresh);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a changed config file or environment override is validated again, and remembered", async () => {
  const { dir, configPath, entryPath, options } = home(config);
  try {
    await loadRememberedConfig(options());
    const before = Deno.readTextFileSync(entryPath);
    Deno.writeTextFileSync(configPath, config.replace("Ada", "Grace"));
    assert.equal((await loadRememberedConfig(options())).config.radar.name, "Grace");
    assert.notEqual(Deno.readTextFileSync(entryPath), before, "the new result is remembered");
    const withEnv = await loadRememberedConfig(options({ RADAR_LLM_MODEL: "llama3" }));
    assert.equal(withEnv.config.llm.model, "llama3");
    assert.equal((await loadRememberedConfig(options())).config.llm.model, "qwen3");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a secret from the environment is never written to the entry: that config is validated each time", async () => {
  for (const name of ["RADAR_LLM_API_KEY", "RADAR_NTFY_TOKEN", "RADAR_WEB_AUTH_TOKEN"]) {
    const { dir, entryPath, options } = home(config);
    try {
      const secret = `secret-${name}-0123456789`;
      const loaded = await loadRememberedConfig(options({ [name]: secret }));
      assert.deepStrictEqual(loaded, loadConfig(options({ [name]: secret })));
      assert.equal(readTextFileIfExists(entryPath), undefined, `${name}: nothing remembered`);
      await loadRememberedConfig(options({ RADAR_LLM_MODEL: "llama3" }));
      assert.ok(!Deno.readTextFileSync(entryPath).includes(secret), name);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
});

Deno.test("an altered, malformed or foreign entry is ignored: the config is validated in full", async () => {
  const { dir, entryPath, options } = home(config);
  try {
    const fresh = loadConfig(options());
    await loadRememberedConfig(options());
    alterEntry(entryPath, (body) => body.replace('"name":"Ada"', '"name":"Mallory"'), false);
    assert.deepStrictEqual(await loadRememberedConfig(options()), fresh);
    for (
      const text of ["not json", "{}", "null", '{"format":1,"key":"x","digest":"y","body":"{}"}']
    ) {
      Deno.writeTextFileSync(entryPath, text);
      assert.deepStrictEqual(await loadRememberedConfig(options()), fresh, text);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("an invalid config still fails with its one line, remembered entry or not", async () => {
  const { dir, configPath, options } = home(config);
  try {
    await loadRememberedConfig(options());
    Deno.writeTextFileSync(configPath, "budget:\n  daily_tokens: many\n");
    let expected = "";
    try {
      loadConfig(options());
    } catch (error) {
      expected = (error as Error).message;
    }
    assert.match(expected, /^Invalid config .*budget\.daily_tokens/);
    await assert.rejects(() => loadRememberedConfig(options()), ConfigError, expected);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("with no data folder yet nothing is written, and the result is the same", async () => {
  const { dir, dataDir, entryPath, options } = home(config);
  try {
    Deno.removeSync(dataDir, { recursive: true });
    assert.deepStrictEqual(await loadRememberedConfig(options()), loadConfig(options()));
    assert.throws(() => Deno.statSync(entryPath), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("what runs before remembering runs once per validation (it may make the data folder)", async () => {
  const { dir, dataDir, entryPath, options } = home(config);
  try {
    Deno.removeSync(dataDir, { recursive: true });
    const validated: string[] = [];
    const makeFolder = (loaded: { dataDir: string }) => {
      validated.push(loaded.dataDir);
      Deno.mkdirSync(loaded.dataDir);
    };
    const first = await loadRememberedConfig(options(), makeFolder);
    assert.deepStrictEqual(first, loadConfig(options()));
    assert.deepEqual(validated, [dataDir]);
    assert.ok(Deno.statSync(entryPath).isFile, "remembered in the folder made before remembering");
    assert.deepStrictEqual(await loadRememberedConfig(options(), makeFolder), first);
    assert.deepEqual(validated, [dataDir], "a remembered config is not validated again");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("src/config/config_fingerprint.ts matches the config loader's sources (not stale)", async () => {
  const committed = Deno.readTextFileSync(join(root, fingerprintPath));
  assert.ok(
    committed === await fingerprintModule(root),
    `${fingerprintPath} is stale: run \`deno task docs\` and commit the result`,
  );
});
