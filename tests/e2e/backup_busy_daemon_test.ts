/**
 * Backup of a busy daemon: a real `radar serve` subprocess runs (and writes heartbeat runs on
 * SIGUSR2) while this test writes facts into its database without pause; `radar backup` (another
 * subprocess, the binary's flags) archives it meanwhile. Restored into a fresh data folder, every
 * fact, task, plugin approval and conversation written before the backup is there, the facts
 * written during it form an unbroken prefix (one consistent snapshot), and the database is
 * intact. A restore while the daemon runs is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRadarHome, runRadar, startRadarServe } from "../helpers/radar_process.ts";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { checkDatabaseFile } from "../../src/adapters/sqlite/maintenance.ts";
import { fromFileUrl } from "../project/file_url.ts";

const examplePlugin = fromFileUrl(new URL("../../plugins/text_utils", import.meta.url));

/** `radar args…` in-process for a person at a terminal (control commands run). */
async function cli(env: Record<string, string>, args: string[]) {
  const io = memoryIo(env, { cwd: env.HOME, interactive: true });
  const code = await runCli(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

Deno.test("a backup of a busy daemon restores into a fresh data folder with everything in it", async () => {
  const source = createRadarHome(
    'llm:\n  base_url: "http://127.0.0.1:9"\n  api_key: "sk-e2e-secret-key"\nheartbeat:\n  enabled: false\n',
  );
  const target = Deno.makeTempDirSync({ prefix: "radar-restored-" });
  const sourceEnv = {
    HOME: source.home,
    RADAR_CONFIG: source.configPath,
    RADAR_DATA_DIR: source.dataDir,
  };
  const targetEnv = { HOME: target, RADAR_DATA_DIR: join(target, "data") };
  try {
    for (let index = 0; index < 20; index++) {
      assert.equal((await cli(sourceEnv, ["memory", "add", `Setup fact ${index}`])).code, 0);
    }
    assert.equal(
      (await cli(sourceEnv, ["task", "add", "--every", "2h", "Water the plants"])).code,
      0,
    );
    const installed = await cli(sourceEnv, ["plugin", "install", examplePlugin]);
    assert.equal(installed.code, 0, installed.err);
    const approved = await cli(sourceEnv, ["plugin", "approve", "text_utils"]);
    assert.equal(approved.code, 0, approved.err);
    const setup = openDatabase(join(source.dataDir, "radar.db"));
    const conversations = new SqliteConversationStore(setup);
    const conversation = conversations.createConversation("chat", "About tea", new Date());
    conversations.appendMessage(conversation, {
      role: "user",
      content: "Which tea do I like?",
      createdAt: new Date(),
    });
    conversations.appendMessage(conversation, {
      role: "assistant",
      content: "Earl Grey, hot.",
      createdAt: new Date(),
    });

    const daemon = await startRadarServe(source);
    const facts = new SqliteFactStore(setup);
    let written = 0;
    let writing = true;
    const load = (async () => {
      while (writing) {
        facts.addFact({ category: "learned_fact", content: `Load fact ${written}` }, new Date());
        written++;
        if (written % 5 === 0) Deno.kill(daemon.pid, "SIGUSR2"); // the daemon writes a run too
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      while (written < 50) await new Promise((resolve) => setTimeout(resolve, 5));
      const before = written;
      const archive = join(source.home, "radar-busy.tar.gz");
      const backup = await runRadar(source.home, ["backup", archive], {
        env: { RADAR_CONFIG: source.configPath },
      });
      const after = written;
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /^Backed up Radar to .*radar-busy\.tar\.gz/);
      assert.match(backup.stdout, /Secrets left out of the config copy .*: llm\.api_key\./);
      assert.ok(after > before, "the load went on while the backup ran");

      const refused = await cli(sourceEnv, ["restore", archive]);
      assert.equal(refused.code, 1);
      assert.match(
        refused.err,
        new RegExp(
          `^radar: Cannot restore while Radar runs for .* \\(PID ${daemon.pid}\\): stop it`,
        ),
      );

      const restored = await cli(targetEnv, ["restore", archive]);
      assert.equal(restored.code, 0, restored.err);
      assert.match(restored.out, /integrity and sums checked/);
      assert.match(restored.out, /Re-enter these secrets in .*radar\.yaml: llm\.api_key\./);

      const db = openDatabase(join(target, "data", "radar.db"));
      try {
        const contents = new SqliteFactStore(db).listFacts({ limit: 100_000 })
          .map((fact) => fact.content);
        for (let index = 0; index < 20; index++) {
          assert.ok(contents.includes(`Setup fact ${index}`));
        }
        const loaded = contents.filter((text) => text.startsWith("Load fact "))
          .map((text) => Number(text.slice("Load fact ".length))).sort((a, b) => a - b);
        assert.ok(
          loaded.length >= before,
          `${loaded.length} of the ${before} facts before the backup`,
        );
        assert.ok(loaded.length <= after);
        assert.deepEqual(
          loaded,
          loaded.map((_, index) => index),
          "an unbroken prefix: one snapshot",
        );
        const chat = new SqliteConversationStore(db);
        assert.equal(chat.conversation(conversation)?.title, "About tea");
        assert.deepEqual(
          chat.messages(conversation).map((message) => message.content),
          ["Which tea do I like?", "Earl Grey, hot."],
        );
      } finally {
        db.close();
      }
      assert.equal(checkDatabaseFile(join(target, "data", "radar.db")).ok, true);
    } finally {
      writing = false;
      await load;
      setup.close();
      assert.equal(await daemon.stop(), 0);
    }

    const tasks = await cli(targetEnv, ["task", "list"]);
    assert.match(tasks.out, /Water the plants/);
    const plugins = await cli(targetEnv, ["plugin", "list", "--json"]);
    const listed = JSON.parse(plugins.out).plugins as Array<{ name: string; status: string }>;
    assert.deepEqual(listed.map((plugin) => [plugin.name, plugin.status]), [[
      "text_utils",
      "enabled",
    ]]);
    const config = Deno.readTextFileSync(join(target, ".config", "radar", "radar.yaml"));
    assert.doesNotMatch(config, /sk-e2e-secret-key/);
    assert.match(config, /base_url: "http:\/\/127\.0\.0\.1:9"/);
  } finally {
    source.remove();
    Deno.removeSync(target, { recursive: true });
  }
});
