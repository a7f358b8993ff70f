/**
 * `radar backup` and `radar restore` from the command line: where the archive goes by default, what
 * the user is told about secrets, and one readable line with a meaningful exit code for every
 * failure (no database yet, an existing file, an unwritable folder, no such archive, a restore
 * over a running daemon's lock). `radar status` shows the backup schedule and the budget.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";
import { listBackups } from "../../src/adapters/backup/backup_folder.ts";

async function cli(env: Record<string, string>, home: string, ...args: string[]) {
  const io = memoryIo(env, { cwd: home });
  const code = await runCli(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

Deno.test("radar backup writes to <data>/backups by default and says which secrets stayed out", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, 'notifications:\n  ntfy:\n    topic: t\n    token: "tk_123456"\n');
    const none = await cli(env, home, "backup");
    assert.equal(none.code, 3);
    assert.match(none.err, /^radar: Cannot back up: no database yet at .*radar\.db\n$/);
    assert.equal((await cli(env, home, "memory", "add", "Tea is Earl Grey")).code, 0);
    const made = await cli(env, home, "backup");
    assert.equal(made.code, 0, made.err);
    const [archive] = listBackups(join(home, "data", "backups"));
    assert.ok(archive, "an archive in <data>/backups");
    assert.match(made.out, new RegExp(`^Backed up Radar to .*${archive.name} \\(\\d+ KiB\\)`));
    assert.match(
      made.out,
      /Secrets left out of the config copy \(re-enter them after a restore\): notifications\.ntfy\.topic, notifications\.ntfy\.token\./,
    );
    assert.match(made.out, /Never copied: the dashboard token/);

    const again = await cli(env, home, "backup", join("data", "backups", archive.name));
    assert.equal(again.code, 1);
    assert.match(
      again.err,
      /^radar: Cannot back up Radar to .*: the file already exists \(choose a new name\)\n$/,
    );
    // /proc takes no new files, for root too.
    const unwritable = await cli(env, home, "backup", "/proc/radar/x.tar.gz");
    assert.equal(unwritable.code, 1);
    assert.match(
      unwritable.err,
      /^radar: Cannot back up Radar to \/proc\/radar\/x\.tar\.gz: [^\n]+\n$/,
    );
    assert.deepEqual(
      [...Deno.readDirSync(join(home, "data"))].filter((entry) =>
        entry.name.startsWith(".backup-")
      ),
      [],
      "the database snapshot is removed",
    );
    const missing = await cli(env, home, "restore", "nowhere.tar.gz");
    assert.equal(missing.code, 3);
    assert.match(missing.err, /^radar: Cannot restore from .*nowhere\.tar\.gz: no such file\n$/);
  });
});

Deno.test("radar status shows the backup schedule and today's budget", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(
      home,
      "backup:\n  every_hours: 24\n  keep: 3\nbudget:\n  daily_tokens: 50000\n",
    );
    const status = await cli(env, home, "status");
    assert.match(status.out, /^backup: {4}every 24 h to .*\/data\/backups \(keep 3\); none yet$/m);
    assert.match(
      status.out,
      /^budget: {4}0 of 50,000 tokens today \(heartbeats 0, tasks 0, summaries 0, digests 0, money 0, vision 0\)$/m,
    );
  });
});
