/**
 * `radar restore` reads archives as hostile: paths out of the archive folder, links, devices,
 * odd names, too many or too large entries (a gzip bomb), duplicates, lies about sizes, files the
 * manifest does not list, and what is not a gzipped tar at all. Each is refused with one line,
 * nothing is written outside the staging folder and the current state is untouched.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { restoreBackup } from "../../../src/adapters/backup/restore_backup.ts";
import {
  defaultRestoreLimits,
  type RestoreLimits,
} from "../../../src/adapters/backup/read_backup.ts";
import { newestSchemaVersion } from "../../../src/adapters/sqlite/database.ts";
import { RadarError } from "../../../src/core/errors.ts";
import { craftArchive, type CraftedEntry } from "./archive_helpers.ts";

const now = new Date("2026-11-23T18:15:00Z");
const manifest = {
  format: "radar-backup" as const,
  formatVersion: 1 as const,
  radarVersion: "0.1.0",
  createdAt: now.toISOString(),
  schemaVersion: 0,
  enabledPlugins: [],
  secretsLeftOut: [],
  secretsReferenced: [],
};
const text = (value: string) => new TextEncoder().encode(value);
const database: CraftedEntry = { name: "radar-backup/radar.db", bytes: new Uint8Array() };
const closing: CraftedEntry = { name: "radar-backup/manifest.json", manifestFor: manifest };

async function attempt(
  entries: CraftedEntry[] | Uint8Array,
  limits: Partial<RestoreLimits> = {},
): Promise<{ error: RadarError; home: string; dataDir: string }> {
  const home = Deno.makeTempDirSync({ prefix: "radar-hostile-" });
  const dataDir = join(home, "a", "b", "data");
  Deno.mkdirSync(dataDir, { recursive: true });
  Deno.writeTextFileSync(join(dataDir, "radar.db"), "the current database");
  const archive = join(home, "archive.tar.gz");
  if (entries instanceof Uint8Array) Deno.writeFileSync(archive, entries);
  else await craftArchive(archive, entries);
  let caught: unknown;
  try {
    await restoreBackup({
      archive,
      dataDir,
      configTarget: join(home, "radar.yaml"),
      replaceConfig: true,
      newestSchemaVersion,
      now,
      limits: { ...defaultRestoreLimits, ...limits },
    });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof RadarError, `refused with a RadarError, got ${caught}`);
  assert.equal(caught.message.split("\n").length, 1, "one line");
  // Nothing changed, nothing left behind, nothing written next to or above the data folder.
  assert.equal(Deno.readTextFileSync(join(dataDir, "radar.db")), "the current database");
  assert.deepEqual([...Deno.readDirSync(dataDir)].map((entry) => entry.name), ["radar.db"]);
  assert.deepEqual([...Deno.readDirSync(join(home, "a", "b"))].map((entry) => entry.name), [
    "data",
  ]);
  assert.deepEqual(
    [...Deno.readDirSync(home)].map((entry) => entry.name).sort(),
    ["a", "archive.tar.gz"],
  );
  return { error: caught, home, dataDir };
}

async function refuses(
  entries: CraftedEntry[] | Uint8Array,
  expected: RegExp,
  limits: Partial<RestoreLimits> = {},
): Promise<void> {
  const { error, home } = await attempt(entries, limits);
  try {
    assert.match(error.message, /^Cannot restore from .*archive\.tar\.gz: /);
    assert.match(error.message, expected);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

Deno.test("paths out of the archive folder, absolute or climbing with .., are refused", async () => {
  await refuses(
    [database, { name: "radar-backup/../../../evil", bytes: text("x") }, closing],
    /a file Radar never writes: radar-backup\/\.\.\/\.\.\/\.\.\/evil/,
  );
  await refuses(
    [{ name: "/etc/cron.d/evil", bytes: text("x") }, database, closing],
    /outside radar-backup\//,
  );
  await refuses([{ name: "../evil", bytes: text("x") }], /outside radar-backup\//);
  await refuses(
    [database, { name: "radar-backup/data/plugins/../../../../evil", bytes: text("x") }, closing],
    /never writes/,
  );
  await refuses(
    [database, { name: "radar-backup/data/plugins/a\\..\\..\\evil", bytes: text("x") }, closing],
    /never writes/,
  );
  await refuses(
    [database, { name: "radar-backup/data/logs/radar.log", bytes: text("x") }, closing],
    /never writes: radar-backup\/data\/logs\/radar\.log/,
  );
  await refuses(
    [database, { name: "radar-backup/dashboard_token", bytes: text("x") }, closing],
    /never writes/,
  );
});

Deno.test("links, hard links, devices and pipes are refused, never created", async () => {
  for (
    const [type, linkname] of [
      ["symlink", "/etc/passwd"],
      ["link", "radar-backup/radar.db"],
      ["character-device", undefined],
      ["fifo", undefined],
    ] as const
  ) {
    await refuses(
      [
        database,
        { name: "radar-backup/data/plugins/available/x/tool.ts", type, linkname },
        closing,
      ],
      new RegExp(
        `holds a ${type} \\(radar-backup/data/plugins/available/x/tool\\.ts\\); only files and folders`,
      ),
    );
  }
});

Deno.test("counts and sizes are bounded before anything is written (a gzip bomb stops)", async () => {
  const many = Array.from({ length: 8 }, (_, index) => ({
    name: `radar-backup/data/skills/s/${index}.md`,
    bytes: text("x"),
  }));
  await refuses([database, ...many, closing], /more than 5 entries/, { maxEntries: 5 });
  await refuses(
    [database, { name: "radar-backup/data/skills/s/big.md", bytes: new Uint8Array(2000) }, closing],
    /big\.md is larger than 1000 bytes/,
    { maxFileBytes: 1000 },
  );
  await refuses(
    [{ name: "radar-backup/radar.db", bytes: new Uint8Array(5000) }, closing],
    /radar\.db is larger than 4096 bytes/,
    { maxDatabaseBytes: 4096 },
  );
  // Zeros compress about a thousandfold: ~6 KiB of archive would unpack to 6 MiB.
  const zeros = Array.from({ length: 6 }, (_, index) => ({
    name: `radar-backup/data/skills/s/${index}.bin`,
    bytes: new Uint8Array(1024 * 1024),
  }));
  await refuses([database, ...zeros, closing], /unpacks to more than 2097152 bytes/, {
    maxTotalBytes: 2 * 1024 * 1024,
  });
  await refuses(
    [database, { name: "radar-backup/manifest.json", bytes: new Uint8Array(5000) }],
    /manifest\.json is larger than 100 bytes/,
    { maxManifestBytes: 100 },
  );
});

Deno.test("duplicates, unlisted or missing files and a wrong manifest are refused", async () => {
  await refuses(
    [database, { name: "radar-backup/radar.db", bytes: text("again") }, closing],
    /holds radar-backup\/radar\.db twice/,
  );
  await refuses([database], /has no manifest\.json \(not a Radar backup\?\)/);
  await refuses(
    [database, closing, { name: "radar-backup/data/skills/late.md", bytes: text("x") }],
    /data\/skills\/late\.md is not in the manifest/,
  );
  await refuses(
    [{
      ...closing,
      extraFiles: [{ path: "data/skills/gone.md", size: 1, sha256: "a".repeat(64) }],
    }],
    /data\/skills\/gone\.md is listed but missing/,
  );
  await refuses(
    [database, { name: "radar-backup/manifest.json", bytes: text('{"format":"other"}') }],
    /its manifest\.json is not a Radar backup manifest/,
  );
  await refuses(
    [{ name: "radar-backup/data/skills/a.md", bytes: text("x") }, closing],
    /it holds no radar\.db/,
  );
});

Deno.test("what is not a whole gzipped tar is refused with one line", async () => {
  await refuses(text("just some text, not an archive\n"), /not a readable backup archive/);
  const archivePath = Deno.makeTempFileSync();
  await craftArchive(archivePath, [
    { name: "radar-backup/radar.db", bytes: crypto.getRandomValues(new Uint8Array(60_000)) },
    closing,
  ]);
  const whole = Deno.readFileSync(archivePath);
  Deno.removeSync(archivePath);
  await refuses(whole.slice(0, whole.length / 2), /not a readable backup archive/);
});
