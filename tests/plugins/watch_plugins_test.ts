import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { watchPluginFolders } from "../../src/plugins/watch_plugins.ts";
import { echoPlugin, pluginFixture } from "./helpers.ts";

Deno.test("watchPluginFolders() picks up a dropped folder while serving", async () => {
  const fixture = pluginFixture();
  let notify: (changes: string[]) => void = () => {};
  const seen = new Promise<string[]>((resolve) => (notify = resolve));
  const watcher = watchPluginFolders(
    { root: fixture.system.manager.dirs.root, refresh: () => fixture.system.refresh() },
    { debounceMs: 50, onChanges: notify },
  );
  try {
    writeFolder(join(fixture.system.manager.dirs.root, "dropped"), echoPlugin("dropped"));
    assert.deepEqual(await seen, ["dropped: waiting for review"]);
    assert.equal(fixture.system.api.list()[0].status, "pending_review");
  } finally {
    watcher.stop();
    await watcher.done;
    await fixture.close();
  }
});
