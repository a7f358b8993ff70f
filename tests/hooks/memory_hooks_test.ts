/**
 * The memory hook points hold on every way into memory, not only the remember/recall tools:
 * `radar memory add|search` (the real CLI in process) and the dashboard's memory page (the app
 * built by `webDependenciesFromRuntime` over a real runtime).
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { ExitCode } from "../../src/core/errors.ts";
import { HookedMemory } from "../../src/core/hooked_memory.ts";
import { Hooks } from "../../src/core/hooks.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { postForm } from "../web/web_fixture.ts";

const rules = `hooks:
  rules:
    - name: no_passwords
      type: block_memory_pattern
      patterns: ["password"]
    - name: hide_health
      type: filter_memory_pattern
      patterns: ["diagnosis"]
`;
const token = "memory-hooks-token-0123456789";

Deno.test("a block_memory_pattern rule refuses `radar memory add` with exit 1 and one line", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, rules);
    let io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "add", "My", "bank", "password", "is", "hunter2"], io), 1);
    const err = io.err.join("");
    assert.equal(err.trim().split("\n").length, 1, err);
    assert.match(err, /^radar: Cannot remember this fact: Not stored: this memory matches/);
    io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "list"], io), 0);
    assert.equal(io.out.join(""), "No facts remembered yet.\n", "nothing was stored");
    io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "add", "Tea", "is", "green"], io), ExitCode.ok);
    assert.equal(io.out.join(""), "Remembered #1.\n");
  });
});

Deno.test("a filter_memory_pattern rule filters `radar memory search`", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, rules);
    for (const fact of ["Doctor visit: diagnosis flu", "Doctor is Dr. Who"]) {
      assert.equal(await runCli(["memory", "add", fact], memoryIo(env, { cwd: home })), 0);
    }
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "search", "doctor"], io), 0);
    assert.match(io.out.join(""), /Dr\. Who/);
    assert.doesNotMatch(io.out.join(""), /diagnosis/);
  });
});

Deno.test("the dashboard's memory search and add go through the memory hooks", async () => {
  await withTestDaemon({ yaml: `${rules}web:\n  auth_token: "${token}"\n` }, async (daemon) => {
    const radar = daemon.runtime;
    radar.facts.addFact({ category: "learned_fact", content: "Doctor: diagnosis flu" }, new Date());
    radar.facts.addFact({ category: "learned_fact", content: "Doctor is Dr. Who" }, new Date());
    const app = createApp(await webDependenciesFromRuntime(radar, { env: {}, cwd: daemon.dir }));
    const auth = { Authorization: `Bearer ${token}` };
    for (const path of ["/memory?q=doctor", "/memory/results?q=doctor"]) {
      const html = await (await app.request(path, { headers: auth })).text();
      assert.match(html, /Dr\. Who/, path);
      assert.doesNotMatch(html, /diagnosis/, path);
      assert.match(html, /1 match for/, path);
    }
    const added = await app.request(
      "/memory",
      postForm({ category: "learned_fact", content: "the wifi password is swordfish" }, auth),
    );
    assert.equal(added.status, 422);
    assert.match(await added.text(), /Not remembered: Not stored: this memory matches/);
    assert.equal(radar.facts.searchFacts("swordfish", 5).length, 0);
    const edited = await app.request(
      "/memory/2",
      postForm({ content: "password: swordfish" }, auth),
    );
    assert.equal(edited.status, 422);
    assert.match(await edited.text(), /Not saved: Not stored/);
    assert.equal(radar.facts.getFact(2)?.content, "Doctor is Dr. Who");
  });
});

Deno.test("a filter_memory_pattern rule filters `radar memory list` too", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, rules);
    for (const fact of ["Doctor visit: diagnosis flu", "Doctor is Dr. Who"]) {
      assert.equal(await runCli(["memory", "add", fact], memoryIo(env, { cwd: home })), 0);
    }
    for (const args of [["memory", "list"], ["memory", "list", "--json"]]) {
      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(args, io), 0, io.err.join(""));
      assert.match(io.out.join(""), /Dr\. Who/, args.join(" "));
      assert.doesNotMatch(io.out.join(""), /diagnosis/, args.join(" "));
    }
  });
});

Deno.test("the dashboard's memory browsing (no search) and fact pages go through post_memory_search", async () => {
  await withTestDaemon({ yaml: `${rules}web:\n  auth_token: "${token}"\n` }, async (daemon) => {
    const radar = daemon.runtime;
    const hidden = radar.facts.addFact(
      { category: "learned_fact", content: "Doctor: diagnosis flu" },
      new Date(),
    );
    radar.facts.addFact({ category: "learned_fact", content: "Doctor is Dr. Who" }, new Date());
    radar.facts.addFact({ category: "user_preference", content: "Tea, no diagnosis" }, new Date());
    const app = createApp(await webDependenciesFromRuntime(radar, { env: {}, cwd: daemon.dir }));
    const auth = { Authorization: `Bearer ${token}` };
    for (const path of ["/memory", "/memory/results", "/memory?category=learned_fact"]) {
      const answer = await app.request(path, { headers: auth });
      assert.equal(answer.status, 200, path);
      const html = await answer.text();
      assert.match(html, /Dr\. Who/, path);
      assert.doesNotMatch(html, /diagnosis/, path);
    }
    for (const path of [`/memory/${hidden}`, `/memory/${hidden}/edit`]) {
      const answer = await app.request(path, { headers: auth });
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(await answer.text(), /diagnosis/, path);
    }
    const saved = await app.request(`/memory/${hidden}`, postForm({ content: "changed" }, auth));
    assert.equal(saved.status, 404, "a hidden fact cannot be edited by id");
    assert.equal(radar.facts.getFact(hidden)?.content, "Doctor: diagnosis flu");
    const forgotten = await app.request(`/memory/${hidden}/forget`, postForm({}, auth));
    assert.equal(forgotten.status, 303, "forgetting a hidden fact still works");
    assert.equal(radar.facts.getFact(hidden), undefined);
  });
});

Deno.test("HookedMemory asks pre_memory_store once, before any confirmation", async () => {
  const hooks = new Hooks();
  const seen: string[] = [];
  hooks.register({
    name: "no_secrets",
    point: "pre_memory_store",
    priority: 50,
    source: "test",
    description: "",
    handler: ({ content }) => {
      seen.push(content);
      return content.includes("secret") ? { blocked: true, message: "no secrets" } : undefined;
    },
  });
  const facts = new SqliteFactStore(openDatabase(":memory:"));
  const memory = new HookedMemory({ facts, hooks });
  let asked = 0;
  const confirm = () => {
    asked++;
    return Promise.resolve(undefined);
  };
  const at = new Date("2026-11-23T10:00:00Z");
  assert.deepEqual(
    await memory.add({ category: "personality_note", content: "a secret tone" }, at, confirm),
    { ok: false, message: "no secrets" },
  );
  assert.equal(asked, 0, "a blocked note is never put to the user");
  assert.deepEqual(
    await memory.add({ category: "personality_note", content: "be brief" }, at, confirm),
    { ok: true, id: 1 },
  );
  assert.deepEqual(seen, ["a secret tone", "be brief"], "one hook call per store");
  assert.deepEqual(
    await memory.add(
      { category: "learned_fact", content: "tea" },
      at,
      () => Promise.resolve("declined"),
    ),
    { ok: false, message: "declined" },
  );
  assert.equal(facts.countFacts(), 1);
});
