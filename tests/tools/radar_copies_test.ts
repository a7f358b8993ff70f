/**
 * Radar's own files and every copy of them are out of every tool's reach: the config (copied into
 * scratch it would pass the masker as base64), the data folder's backups, before-restore, journal
 * originals, damaged copies and kept browser profiles, and `backup.folder` and a browser profile
 * given as a path wherever they are. Not read, listed or copied by the file tools, through a link
 * or a hard link either; not visible to exec at all.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import type { RadarConfig } from "../../src/config/schema.ts";
import { listDirectoryTool } from "../../src/tools/list_directory.ts";
import { moveFileTool } from "../../src/tools/move_file.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, type TempHome, tempHome, toolDeps } from "./tool_harness.ts";
import { execFor } from "./exec/exec_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

const secret = "RADAR-OWN-SECRET-8c1d";

/** Radar's config, its data folder's copies, an outside backup folder and browser profile. */
const places = [
  ".config/radar/radar.yaml",
  ".local/share/radar/radar.log",
  ".local/share/radar/backups/radar-backup-20261123T181500Z.tar.gz",
  ".local/share/radar/before-restore/20261123T181500Z/radar.db",
  ".local/share/radar/before-restore/20261123T181500Z/radar.yaml.from-backup",
  ".local/share/radar/journal/17-invoice.pdf",
  ".local/share/radar/damaged/radar-20261123T181500Z.db",
  ".local/share/radar/browser-profiles/shop/Default/Local Storage/leveldb/000003.log",
  "Backups/radar/radar-backup-20261124T181500Z.tar.gz",
  "profiles/radar/Default/Local Storage/leveldb/000003.log",
];

const configured = (config: RadarConfig) => {
  config.backup.folder = "~/Backups/radar";
  config.browser.profile = "~/profiles/radar";
};

function planted(): TempHome {
  const home = tempHome();
  for (const path of places) {
    Deno.mkdirSync(dirname(join(home.home, path)), { recursive: true });
    Deno.writeTextFileSync(join(home.home, path), `llm:\n  api_key: ${secret}\n`);
  }
  Deno.mkdirSync(join(home.home, "docs"));
  // A second name for a backup (a hard link) and a symbolic link into the backup folder.
  Deno.linkSync(join(home.home, places[8]), join(home.home, "docs/holiday.txt"));
  Deno.symlinkSync(join(home.home, "Backups/radar"), join(home.home, "docs/old"));
  return home;
}

Deno.test("no file tool reads, lists or copies Radar's files or any copy of them", async () => {
  const home = planted();
  try {
    const deps = toolDeps(home, configured);
    const read = readFileTool(deps);
    const list = listDirectoryTool(deps);
    const move = moveFileTool(deps);
    const tried = [
      ...places.map((path) => `~/${path}`),
      "~/docs/holiday.txt",
      "~/docs/old/radar-backup-20261124T181500Z.tar.gz",
    ];
    for (const path of tried) {
      const reading = await call(read, { path });
      assert.equal(reading.outcome, "refused", `read ${path}: ${reading.text}`);
      const copying = await call(move, {
        source: path,
        destination: "~/.local/state/radar/scratch/",
      });
      assert.equal(copying.outcome, "refused", `copy ${path}: ${copying.text}`);
      assert.ok(!`${reading.text}${copying.text}`.includes(secret));
    }
    for (const folder of places.map((path) => `~/${dirname(path)}`).concat("~/docs/old")) {
      const listing = await call(list, { path: folder });
      assert.equal(listing.outcome, "refused", `list ${folder}: ${listing.text}`);
    }
    const config = await call(read, { path: "~/.config/radar/radar.yaml" });
    assert.match(config.text, /protected by rule ~\/\.config\/radar \(Radar's config folder\)/);
    const backup = await call(read, { path: `~/${places[8]}` });
    assert.match(backup.text, /protected by rule ~\/Backups\/radar \(Radar's backup folder\)/);
    const linked = await call(read, { path: "~/docs/holiday.txt" });
    assert.match(linked.text, /hard link to a file protected by rule ~\/Backups\/radar/);
    const scratch = join(home.home, ".local/state/radar/scratch");
    let copied: string[] = [];
    try {
      copied = [...Deno.readDirSync(scratch)].map((entry) => entry.name);
    } catch { /* never created */ }
    assert.deepEqual(copied, [], "nothing reached the scratch folder");
  } finally {
    home.dispose();
  }
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "exec sees neither the backup folder nor a browser profile kept outside the data folder",
}, async () => {
  const home = planted();
  try {
    const result = await call(execFor(home, configured), {
      command: "ls -A ~/Backups/radar ~/profiles/radar; cat ~/Backups/radar/* " +
        "~/profiles/radar/Default/Local\\ Storage/leveldb/* ~/docs/old/* | base64",
    });
    assert.notEqual(result.outcome, "refused", result.text);
    assert.ok(!result.text.includes(secret), result.text);
    assert.ok(!result.text.includes(btoa(`llm:\n  api_key: ${secret}`).slice(0, 20)), result.text);
    assert.doesNotMatch(result.text, /radar-backup-20261124T181500Z|^Default$/m, "listed nothing");
  } finally {
    home.dispose();
  }
}));
