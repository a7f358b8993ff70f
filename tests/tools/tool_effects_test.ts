/** Every built-in tool declares what a call does to the world (the run guard depends on it). */
import assert from "node:assert/strict";
import { builtinTools } from "../../src/tools/index.ts";
import { effectOf, toolEffects } from "../../src/core/tool.ts";
import { tempHome, toolDeps } from "./tool_harness.ts";
import { SubprocessComicArchives } from "../../src/adapters/archive/subprocess_comic_archives.ts";

Deno.test("every built-in tool declares its effect; path tools name their path arguments", () => {
  const home = tempHome();
  try {
    const comicArchives = new SubprocessComicArchives({ timeoutMs: 1_000, env: {} });
    const tools = builtinTools(toolDeps(home, () => {}, { comicArchives }));
    assert.ok(tools.some((tool) => tool.name === "move_file"));
    for (const tool of tools) {
      assert.notEqual(tool.effect, undefined, `${tool.name} declares no effect`);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const effect = (name: string, args: Record<string, unknown> = {}) =>
      effectOf(byName.get(name)!, args);
    assert.equal(effect("read_file"), "none");
    assert.equal(effect("write_file"), "local_write");
    assert.equal(effect("move_file"), "local_write");
    assert.equal(effect("fetch_url"), "sends_out");
    assert.equal(effect("web_search"), "sends_out");
    assert.equal(effect("notify"), "notifies_user");
    assert.equal(effect("remember"), "local_write");
    assert.equal(effect("exec", { command: "ls -la" }), "none");
    assert.equal(effect("exec", { command: "mv a b" }), "local_write");
    assert.equal(effect("exec", { command: 42 }), "sends_out", "unparsable: the strictest");
    for (const tool of tools) assert.ok(toolEffects.includes(effectOf(tool, {})));
    assert.deepEqual(byName.get("move_file")!.pathArguments, ["source", "destination"]);
    assert.deepEqual(byName.get("write_file")!.pathArguments, ["path"]);
    assert.equal(effect("comic_info", { path: "~/a.cbz" }), "none");
    assert.equal(effect("comic_info", { path: "~/a.cbz", set: { Year: 2018 } }), "local_write");
    assert.equal(effect("comic_info", { path: "~/a.cbz", file: true }), "local_write");
    assert.deepEqual(byName.get("comic_info")!.pathArguments, ["path"]);
  } finally {
    home.dispose();
  }
});
