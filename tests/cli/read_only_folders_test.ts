/**
 * A read-only data folder that lacks the folders Radar creates on first use (plugins/, logs/):
 * read commands still work, and a command that must write says so in one line instead of
 * "unexpected failure". Real read-only tmpfs (root).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runRadar } from "../helpers/radar_process.ts";
import { mountTmpfs, tmpfsMounts } from "../adapters/sqlite/tmpfs.ts";
import { needing } from "../helpers/system_parts.ts";

Deno.test(needing([tmpfsMounts], {
  name: "a read-only data folder without plugins/ and logs/: reads work, serve fails in one line",
  async fn() {
    const home = Deno.makeTempDirSync({ prefix: "radar-ro-folders-" });
    const dataDir = join(home, "data");
    Deno.mkdirSync(dataDir);
    const tmpfs = mountTmpfs(8192, dataDir);
    try {
      assert.equal((await runRadar(home, ["memory", "add", "kept fact"])).code, 0);
      Deno.removeSync(join(dataDir, "plugins"), { recursive: true });
      assert.throws(() => Deno.statSync(join(dataDir, "logs")), Deno.errors.NotFound);
      tmpfs.makeReadOnly();

      const listed = await runRadar(home, ["memory", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /kept fact/);
      const plugins = await runRadar(home, ["plugin", "list"]);
      assert.equal(plugins.code, 0, plugins.stderr);

      const served = await runRadar(home, ["serve", "--port", "0"]);
      assert.equal(served.code, 1);
      assert.equal(served.stderr.trim().split("\n").length, 1, served.stderr);
      assert.doesNotMatch(served.stderr, /unexpected failure/);
      assert.match(served.stderr, /read-only file system/);
    } finally {
      tmpfs.unmount();
      Deno.removeSync(home, { recursive: true });
    }
  },
}));
