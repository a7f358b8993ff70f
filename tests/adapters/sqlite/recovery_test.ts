/**
 * A damaged database names its path and the recovery; `radar db check` finds damage (exit 1);
 * `radar db backup` writes an owner-only copy; a read-only data folder still serves reads.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { runRadar } from "../../helpers/radar_process.ts";
import { mountTmpfs, type Tmpfs, tmpfsMounts } from "./tmpfs.ts";
import { needing, normalUser } from "../../helpers/system_parts.ts";

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  return lines[0];
}

Deno.test("a file that is not a database: one line with the path and `radar db check`", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-damaged-" });
  try {
    const dataDir = join(home, "data");
    Deno.mkdirSync(dataDir);
    Deno.writeFileSync(join(dataDir, "radar.db"), crypto.getRandomValues(new Uint8Array(65536)));
    const listed = await runRadar(home, ["memory", "list"]);
    assert.equal(listed.code, 1);
    const line = oneLine(listed.stderr);
    assert.ok(line.includes(join(dataDir, "radar.db")), line);
    assert.match(
      line,
      /is damaged \(file is not a database\): run `radar db check`.*`radar db recover`/,
    );
    assert.doesNotMatch(line, /unexpected failure/);
    const checked = await runRadar(home, ["db", "check", "--json"]);
    assert.equal(checked.code, 1, checked.stderr);
    const report = JSON.parse(checked.stdout);
    assert.equal(report.ok, false);
    assert.match(report.problems[0], /not a database/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("db check passes an intact database; db backup writes an owner-only, restorable copy", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-backup-" });
  try {
    assert.equal((await runRadar(home, ["memory", "add", "the spare key is blue"])).code, 0);
    const checked = await runRadar(home, ["db", "check"]);
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /is intact/);
    const target = join(home, "copy.db");
    const backedUp = await runRadar(home, ["db", "backup", target]);
    assert.equal(backedUp.code, 0, backedUp.stderr);
    assert.equal(Deno.statSync(target).mode! & 0o777, 0o600);
    const copy = new DatabaseSync(target, { readOnly: true });
    const facts = copy.prepare("SELECT content FROM facts").all() as Array<{ content: string }>;
    copy.close();
    assert.deepEqual(facts.map((row) => row.content), ["the spare key is blue"]);
    const again = await runRadar(home, ["db", "backup", target]);
    assert.equal(again.code, 1);
    assert.match(oneLine(again.stderr), /already exists/);
    const status = await runRadar(home, ["status"]);
    assert.match(status.stdout, /integrity: ok/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test(needing([tmpfsMounts], {
  name: "a read-only data folder (a read-only tmpfs) still allows history, memory list, status " +
    "and config show",
  fn: () => readOnlyFolder("tmpfs"),
}));

Deno.test(needing([normalUser(import.meta.url)], {
  name: "a read-only data folder (its permissions, for a normal user) still allows history, " +
    "memory list, status and config show",
  // Root ignores permissions: as root this runs as the test user.
  fn: () => readOnlyFolder("permissions"),
}));

/** The data folder made read-only by a remount of its tmpfs, or by its permissions. */
async function readOnlyFolder(how: "tmpfs" | "permissions") {
  const home = Deno.makeTempDirSync({ prefix: "radar-readonly-" });
  const dataDir = join(home, "data");
  let mounted: Tmpfs | undefined;
  try {
    if (how === "tmpfs") {
      Deno.mkdirSync(dataDir);
      mounted = mountTmpfs(8192, dataDir);
    }
    assert.equal((await runRadar(home, ["memory", "add", "kept while writable"])).code, 0);
    if (mounted) {
      mounted.makeReadOnly();
    } else {
      Deno.chmodSync(join(dataDir, "radar.db"), 0o444);
      Deno.chmodSync(dataDir, 0o555);
    }
    for (const args of [["history"], ["memory", "list"], ["status"], ["config", "show"]]) {
      const run = await runRadar(home, args);
      // status exits 1 here because no model server answers (the read-only folder is not why).
      assert.equal(run.code, args[0] === "status" ? 1 : 0, `${args.join(" ")}: ${run.stderr}`);
      if (args[0] === "memory") assert.match(run.stdout, /kept while writable/);
      if (args[0] === "status") assert.match(run.stdout, /read-only/);
    }
    const added = await runRadar(home, ["memory", "add", "refused"]);
    assert.equal(added.code, 1);
    assert.match(oneLine(added.stderr), /^radar: Cannot save the fact: .*read-only/);
  } finally {
    if (mounted) mounted.unmount();
    else Deno.chmodSync(dataDir, 0o755);
    Deno.removeSync(home, { recursive: true });
  }
}
