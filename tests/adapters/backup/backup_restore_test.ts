/**
 * Backup and restore on real files: a data folder with a database, plugins (an enabled link),
 * skills, personalities and a config with secrets goes into one archive and comes back whole into
 * a fresh folder; restoring over an existing state keeps that state aside; the config is never
 * overwritten unasked; a newer schema, a damaged database and altered files are refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteFactStore } from "../../../src/adapters/sqlite/fact_store.ts";
import { writeBackup } from "../../../src/adapters/backup/write_backup.ts";
import { backupDatabase } from "../../../src/adapters/sqlite/maintenance.ts";
import { restoreBackup } from "../../../src/adapters/backup/restore_backup.ts";
import { newestSchemaVersion } from "../../../src/adapters/sqlite/database.ts";
import { RadarError } from "../../../src/core/errors.ts";
import { craftArchive, readArchive } from "./archive_helpers.ts";

const now = new Date("2026-11-23T18:15:00Z");
const config = `# my settings
llm:
  base_url: "http://gpu-box.lan:11434"
  api_key: "sk-live-very-secret" # the key
notifications:
  ntfy:
    topic: radar-ada
    token: "tk_secret_token"
email:
  accounts:
    - name: work
      host: imap.example.com
      username: ada
      password_cmd: "pass show mail/work"
`;

/** A data folder with a fact, a plugin enabled by link, a skill and a personality. */
function populatedFolder(fact = "Tea is Earl Grey") {
  const home = Deno.makeTempDirSync({ prefix: "radar-backup-" });
  const dataDir = join(home, "data");
  Deno.mkdirSync(dataDir, { mode: 0o700 });
  const db = openDatabase(join(dataDir, "radar.db"));
  new SqliteFactStore(db).addFact({ category: "user_preference", content: fact }, now);
  const plugin = join(dataDir, "plugins", "available", "greeter");
  Deno.mkdirSync(plugin, { recursive: true });
  Deno.writeTextFileSync(join(plugin, "manifest.yaml"), "name: greeter\n");
  Deno.writeTextFileSync(join(plugin, "tool.ts"), "export function greet() {}\n");
  Deno.mkdirSync(join(dataDir, "plugins", "enabled"));
  Deno.symlinkSync("../available/greeter", join(dataDir, "plugins", "enabled", "greeter"));
  Deno.mkdirSync(join(dataDir, "plugins", "pending_review"));
  Deno.mkdirSync(join(dataDir, "skills", "tea-time", "scripts"), { recursive: true });
  Deno.writeTextFileSync(
    join(dataDir, "skills", "tea-time", "SKILL.md"),
    "---\nname: tea-time\n---\n",
  );
  Deno.writeTextFileSync(join(dataDir, "skills", "tea-time", "scripts", "brew.sh"), "echo brew\n", {
    mode: 0o755,
  });
  Deno.mkdirSync(join(dataDir, "personalities"));
  Deno.writeTextFileSync(join(dataDir, "personalities", "butler.md"), "You are formal.\n");
  Deno.writeTextFileSync(join(dataDir, "personalities", ".active"), "butler\n");
  // A link a plugin folder should never hold: not followed, not archived.
  Deno.symlinkSync("/etc/passwd", join(dataDir, "skills", "tea-time", "passwd"));
  Deno.writeTextFileSync(join(dataDir, "dashboard_token"), "secret-dashboard-token");
  Deno.mkdirSync(join(dataDir, "logs"));
  Deno.writeTextFileSync(join(dataDir, "logs", "radar.log"), "log line\n");
  const configPath = join(home, "radar.yaml");
  Deno.writeTextFileSync(configPath, config);
  return { home, dataDir, db, configPath };
}

/** Backs up a populated folder (with its config) to `archive`. */
function backUp(
  folder: Omit<ReturnType<typeof populatedFolder>, "configPath"> & { configPath?: string },
  archive: string,
) {
  const { db, dataDir, configPath } = folder;
  const snapshotDatabase = (path: string) => backupDatabase(db, path);
  return writeBackup(
    { snapshotDatabase, dataDir, configPath, radarVersion: "0.1.0", now },
    archive,
  );
}

function facts(dataDir: string): string[] {
  const db = openDatabase(join(dataDir, "radar.db"));
  try {
    return new SqliteFactStore(db).listFacts({ limit: 100 }).map((fact) => fact.content);
  } finally {
    db.close();
  }
}

Deno.test("a backup holds the database, plugins, skills, personalities and the config without its secrets", async () => {
  const source = populatedFolder();
  try {
    const archive = join(source.home, "backup.tar.gz");
    const summary = await backUp(source, archive);
    assert.equal(Deno.statSync(archive).mode! & 0o777, 0o600, "owner-only");
    assert.deepEqual(summary.secretsLeftOut, [
      "llm.api_key",
      "notifications.ntfy.topic",
      "notifications.ntfy.token",
    ]);
    assert.deepEqual(summary.secretsReferenced, ["email.accounts[0].password_cmd"]);
    assert.deepEqual(summary.skipped, ["skills/tea-time/passwd"]);
    assert.equal(summary.schemaVersion, newestSchemaVersion);
    const entries = await readArchive(archive);
    assert.deepEqual([...entries.keys()], [
      "radar-backup/radar.db",
      "radar-backup/radar.yaml",
      "radar-backup/data/plugins/available/greeter/manifest.yaml",
      "radar-backup/data/plugins/available/greeter/tool.ts",
      "radar-backup/data/skills/tea-time/SKILL.md",
      "radar-backup/data/skills/tea-time/scripts/brew.sh",
      "radar-backup/data/personalities/.active",
      "radar-backup/data/personalities/butler.md",
      "radar-backup/manifest.json",
    ]);
    const archivedConfig = entries.get("radar-backup/radar.yaml")!.text;
    assert.doesNotMatch(archivedConfig, /sk-live-very-secret|tk_secret_token/);
    assert.doesNotMatch(archivedConfig, /#/, "no comments: they can hold anything");
    assert.match(archivedConfig, /api_key: ""/);
    assert.match(archivedConfig, /password_cmd: "pass show mail\/work"/);
    const everything = [...entries.values()].map((entry) => entry.text).join("\n");
    assert.doesNotMatch(everything, /secret-dashboard-token|log line|root:x:0/);
    const manifest = JSON.parse(entries.get("radar-backup/manifest.json")!.text);
    assert.deepEqual(manifest.enabledPlugins, ["greeter"]);
    assert.equal(manifest.files.length, 8);
  } finally {
    source.db.close();
    Deno.removeSync(source.home, { recursive: true });
  }
});

Deno.test("restore into a fresh folder brings everything back and writes the config where none is", async () => {
  const source = populatedFolder();
  const target = Deno.makeTempDirSync({ prefix: "radar-restore-" });
  try {
    const archive = join(source.home, "backup.tar.gz");
    await backUp(source, archive);
    const dataDir = join(target, "data");
    Deno.mkdirSync(dataDir);
    const configTarget = join(target, "config", "radar.yaml");
    const summary = await restoreBackup({
      archive,
      dataDir,
      configTarget,
      replaceConfig: false,
      newestSchemaVersion,
      now,
    });
    assert.equal(summary.aside, undefined, "nothing to keep aside");
    assert.equal(summary.config, "written");
    assert.deepEqual(facts(dataDir), ["Tea is Earl Grey"]);
    assert.equal(
      Deno.readLinkSync(join(dataDir, "plugins", "enabled", "greeter")),
      "../available/greeter",
    );
    assert.equal(
      Deno.readTextFileSync(join(dataDir, "plugins", "enabled", "greeter", "tool.ts")),
      "export function greet() {}\n",
    );
    assert.equal(Deno.readTextFileSync(join(dataDir, "personalities", ".active")), "butler\n");
    assert.equal(
      Deno.statSync(join(dataDir, "skills", "tea-time", "scripts", "brew.sh")).mode! & 0o777,
      0o700,
      "an executable stays executable, for its owner only",
    );
    assert.equal(Deno.statSync(join(dataDir, "radar.db")).mode! & 0o777, 0o600);
    assert.match(Deno.readTextFileSync(configTarget), /api_key: ""/);
    assert.deepEqual(
      [...Deno.readDirSync(dataDir)].map((entry) => entry.name).sort(),
      ["personalities", "plugins", "radar.db", "skills"],
      "no staging folder is left behind",
    );
  } finally {
    source.db.close();
    Deno.removeSync(source.home, { recursive: true });
    Deno.removeSync(target, { recursive: true });
  }
});

Deno.test("restore over an existing state moves it aside whole; the config is kept unless asked", async () => {
  const old = populatedFolder("Coffee, black");
  const backup = populatedFolder("Tea is Earl Grey");
  try {
    const archive = join(backup.home, "backup.tar.gz");
    await backUp(backup, archive);
    old.db.close();
    Deno.writeTextFileSync(old.configPath, "llm:\n  model: mine\n");
    const kept = await restoreBackup({
      archive,
      dataDir: old.dataDir,
      configTarget: old.configPath,
      replaceConfig: false,
      newestSchemaVersion,
      now,
    });
    const aside = join(old.dataDir, "before-restore", "20261123T181500Z");
    assert.equal(kept.aside, aside);
    assert.deepEqual(facts(old.dataDir), ["Tea is Earl Grey"]);
    assert.deepEqual(facts(aside), ["Coffee, black"], "the previous database is aside, intact");
    assert.ok(Deno.statSync(join(aside, "plugins", "available", "greeter")).isDirectory);
    assert.equal(kept.config, "kept");
    assert.equal(Deno.readTextFileSync(old.configPath), "llm:\n  model: mine\n");
    assert.equal(kept.configCopy, join(aside, "radar.yaml.from-backup"));
    assert.equal(
      Deno.readTextFileSync(join(old.dataDir, "dashboard_token")),
      "secret-dashboard-token",
    );
    assert.equal(Deno.readTextFileSync(join(old.dataDir, "logs", "radar.log")), "log line\n");

    const replaced = await restoreBackup({
      archive,
      dataDir: old.dataDir,
      configTarget: old.configPath,
      replaceConfig: true,
      newestSchemaVersion,
      now: new Date(now.getTime() + 60_000),
    });
    assert.equal(replaced.config, "replaced");
    assert.match(Deno.readTextFileSync(old.configPath), /gpu-box\.lan/);
    assert.equal(
      Deno.readTextFileSync(join(replaced.aside!, "radar.yaml")),
      "llm:\n  model: mine\n",
    );
  } finally {
    backup.db.close();
    Deno.removeSync(old.home, { recursive: true });
    Deno.removeSync(backup.home, { recursive: true });
  }
});

Deno.test("restore refuses a newer schema, a damaged database and altered files, and changes nothing", async () => {
  const source = populatedFolder();
  try {
    const archive = join(source.home, "backup.tar.gz");
    await backUp({ ...source, configPath: undefined }, archive);
    const entries = await readArchive(archive);
    const manifest = JSON.parse(entries.get("radar-backup/manifest.json")!.text);
    const database = entries.get("radar-backup/radar.db")!.bytes;
    const cases: Array<[string, Uint8Array | undefined, RegExp, number?]> = [];
    // Schema 999 in the header (bytes 60-63) and the manifest: made by a newer Radar.
    const newer = database.slice();
    new DataView(newer.buffer).setUint32(60, 999);
    cases.push([
      "newer",
      newer,
      /made by a newer Radar \(0\.1\.0, schema 999; this Radar knows up to \d+\): update Radar first/,
      999,
    ]);
    // Pages overwritten with garbage: SQLite's integrity check fails.
    const damaged = database.slice();
    damaged.fill(0x41, 4096, Math.min(damaged.length, 4096 * 6));
    cases.push(["damaged", damaged, /its database is damaged|not a readable/]);
    for (const [name, bytes, expected, schema] of cases) {
      const path = join(source.home, `${name}.tar.gz`);
      await craftArchive(path, [
        { name: "radar-backup/radar.db", bytes },
        {
          name: "radar-backup/manifest.json",
          manifestFor: { ...manifest, schemaVersion: schema ?? manifest.schemaVersion },
        },
      ]);
      await assert.rejects(
        restoreBackup({
          archive: path,
          dataDir: source.dataDir,
          configTarget: join(source.home, "none.yaml"),
          replaceConfig: false,
          newestSchemaVersion,
          now,
        }),
        (error: Error) => error instanceof RadarError && expected.test(error.message),
        name,
      );
    }
    // A file whose bytes differ from the manifest's sum.
    const altered = join(source.home, "altered.tar.gz");
    await craftArchive(altered, [
      { name: "radar-backup/radar.db", bytes: database },
      { name: "radar-backup/data/skills/x/SKILL.md", bytes: new TextEncoder().encode("evil") },
      {
        name: "radar-backup/manifest.json",
        manifestFor: manifest,
        extraFiles: [{ path: "data/skills/x/SKILL.md", size: 4, sha256: "0".repeat(64) }],
      },
    ]);
    await assert.rejects(
      restoreBackup({
        archive: altered,
        dataDir: source.dataDir,
        configTarget: join(source.home, "none.yaml"),
        replaceConfig: false,
        newestSchemaVersion,
        now,
      }),
      /data\/skills\/x\/SKILL\.md does not match its SHA-256 sum/,
    );
    assert.deepEqual(facts(source.dataDir), ["Tea is Earl Grey"], "the current state is untouched");
    assert.equal(
      [...Deno.readDirSync(source.dataDir)].filter((entry) =>
        entry.name.startsWith(".restore-") || entry.name === "before-restore"
      ).length,
      0,
    );
  } finally {
    source.db.close();
    Deno.removeSync(source.home, { recursive: true });
  }
});
