/**
 * A plugin's grant is cut around Radar's places outside its data and XDG folders too: the config
 * file at a path of its own, `backup.folder` and a browser profile kept at a path.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqlitePluginRecords } from "../../src/adapters/sqlite/plugin_records.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { PluginInventory } from "../../src/plugins/plugin_inventory.ts";

Deno.test("a plugin granted a folder never reaches Radar's backups, profile or config in it", () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-plugin-places-" }));
  const db = openDatabase(":memory:");
  try {
    const srv = join(root, "srv");
    for (const folder of ["backups", "profile", "notes"]) {
      Deno.mkdirSync(join(srv, folder), { recursive: true });
    }
    Deno.writeTextFileSync(join(srv, "radar.yaml"), "llm: {}\n");
    const inventory = new PluginInventory({
      dataDir: join(root, "data"),
      records: new SqlitePluginRecords(db),
      config: defaultConfig().plugins,
      env: { HOME: join(root, "home") },
      clock: new ManualClock(new Date("2026-11-23T18:15:00Z")),
      ownPlaces: {
        configFile: join(srv, "radar.yaml"),
        backupFolder: join(srv, "backups"),
        browserProfile: join(srv, "profile"),
      },
    });
    const narrowed = inventory.narrowed({ read: [srv], write: [srv], net: [], env: [] });
    assert.deepEqual(narrowed.grant.read, [join(srv, "notes")]);
    assert.deepEqual(narrowed.grant.write, [join(srv, "notes")]);
    assert.deepEqual(narrowed.cut.read.map((location) => location.label).sort(), [
      "Radar's backup folder",
      "Radar's browser profile",
      "Radar's config file",
    ]);
  } finally {
    db.close();
    Deno.removeSync(root, { recursive: true });
  }
});
