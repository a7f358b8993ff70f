/**
 * A read-only data folder that still holds a -wal and a -shm file (a daemon was running when the
 * copy was made, or the disk was remounted read-only under it): SQLite opens the file itself
 * read-only without a word. Radar must still know it is read-only: `radar status` says so, reads
 * see the changes in the -wal, and a write fails with the read-only line. Real read-only tmpfs.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { runRadar } from "../../helpers/radar_process.ts";
import { mountTmpfs, tmpfsMounts } from "./tmpfs.ts";
import { needing } from "../../helpers/system_parts.ts";

Deno.test(needing([tmpfsMounts], {
  name: "a read-only data folder with -wal and -shm: status says read-only, reads see the -wal",
  async fn() {
    const source = Deno.makeTempDirSync({ prefix: "radar-ro-source-" });
    const home = Deno.makeTempDirSync({ prefix: "radar-ro-home-" });
    const dataDir = join(home, "data");
    Deno.mkdirSync(dataDir);
    const tmpfs = mountTmpfs(8192, dataDir);
    try {
      assert.equal((await runRadar(source, ["memory", "add", "checkpointed fact"])).code, 0);
      const writer = new DatabaseSync(join(source, "data", "radar.db"));
      writer.exec("PRAGMA wal_autocheckpoint = 0");
      writer.exec(
        "INSERT INTO facts (category, content, created_at, updated_at) " +
          "VALUES ('learned_fact', 'fact only in the wal', '2026-11-23T09:00:00Z', " +
          "'2026-11-23T09:00:00Z')",
      );
      // Copied while the writer is open, so the -wal and -shm files come along.
      const copied = new Deno.Command("cp", { args: ["-a", `${join(source, "data")}/.`, dataDir] })
        .outputSync();
      assert.ok(copied.success);
      writer.close();
      for (const name of ["radar.db-wal", "radar.db-shm"]) {
        assert.ok(Deno.statSync(join(dataDir, name)).isFile, name);
      }
      tmpfs.makeReadOnly();

      const status = await runRadar(home, ["status", "--json"]);
      const report = JSON.parse(status.stdout);
      assert.match(JSON.stringify(report), /read-only/, status.stdout);
      const listed = await runRadar(home, ["memory", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /fact only in the wal/);
      assert.match(listed.stdout, /checkpointed fact/);
      const added = await runRadar(home, ["memory", "add", "refused"]);
      assert.equal(added.code, 1);
      assert.equal(added.stderr.trim().split("\n").length, 1, added.stderr);
      assert.match(added.stderr, /Cannot save the fact: .*Radar opened it for reading only/);
    } finally {
      tmpfs.unmount();
      Deno.removeSync(home, { recursive: true });
      Deno.removeSync(source, { recursive: true });
    }
  },
}));
