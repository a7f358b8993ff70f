/**
 * `radar history show ID --json` streams: a long conversation is written page by page in pieces
 * of about 64 KiB (never one document built in memory), and the whole output is still the same
 * valid JSON as before.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { runCli } from "../../src/cli/program.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { radarCommand } from "../helpers/radar_process.ts";

/** Stores one conversation with `count` messages straight in the database (fast). */
function storeConversation(dataDir: string, count: number, padding = ""): void {
  Deno.mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, "radar.db"));
  try {
    db.exec("BEGIN");
    db.prepare(
      "INSERT INTO conversations (id, kind, title, created_at, updated_at) " +
        "VALUES (1, 'chat', 'a long one', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z')",
    ).run();
    const insert = db.prepare(
      "INSERT INTO messages (conversation_id, role, content, tool_calls, created_at) " +
        "VALUES (1, ?, ?, ?, '2026-11-23T09:30:00Z')",
    );
    for (let index = 0; index < count; index++) {
      const calls = index % 7 === 0
        ? JSON.stringify([{ id: `c${index}`, name: "recall", arguments: '{"q":"x"}' }])
        : null;
      insert.run(
        index % 2 ? "assistant" : "user",
        `message ${index} "quoted" \\ ünïcode${padding}`,
        calls,
      );
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

Deno.test("history show --json writes a long conversation in bounded pieces, as valid JSON", async () => {
  await withCliHome(async (env, home) => {
    const count = 3_000;
    storeConversation(join(home, "data"), count);
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["history", "show", "1", "--json"], io), 0, io.err.join(""));
    const output = io.out.join("");
    const parsed = JSON.parse(output);
    assert.equal(parsed.conversation.id, 1);
    assert.equal(parsed.conversation.messageCount, count);
    assert.equal(parsed.messages.length, count);
    assert.equal(parsed.messages[2999].content, 'message 2999 "quoted" \\ ünïcode');
    assert.equal(parsed.messages[7].toolCalls[0].name, "recall");
    // The same document JSON.stringify(…, null, 2) gave before streaming.
    assert.equal(output, `${JSON.stringify(parsed, null, 2)}\n`);
    // Written as it is read: many writes, none much larger than 64 KiB.
    const largest = Math.max(...io.out.map((piece) => piece.length));
    assert.ok(output.length > 300_000, `output ${output.length} chars`);
    assert.ok(largest < 128_000, `largest write ${largest} chars of ${output.length}`);
    assert.ok(io.out.length >= 4, `${io.out.length} writes`);
  });
});

Deno.test("history show --json of an empty conversation is an empty list", async () => {
  await withCliHome(async (env, home) => {
    storeConversation(join(home, "data"), 0);
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["history", "show", "1", "--json"], io), 0, io.err.join(""));
    const parsed = JSON.parse(io.out.join(""));
    assert.deepEqual(parsed.messages, []);
    assert.equal(io.out.join(""), `${JSON.stringify(parsed, null, 2)}\n`);
  });
});

Deno.test("history show --json of 60,000 messages runs in a 40 MB JavaScript heap", async () => {
  await withCliHome(async (_env, home) => {
    const count = 60_000;
    storeConversation(join(home, "data"), count, " padding".repeat(100));
    const output = join(home, "out.json");
    // The whole document is about 55 MB: building it (or every message) in memory overflows.
    const child = radarCommand(home, ["history", "show", "1", "--json"], {
      runFlags: ["--v8-flags=--max-old-space-size=40"],
    }).spawn();
    const [, errors, status] = await Promise.all([
      child.stdout.pipeTo(Deno.openSync(output, { write: true, create: true }).writable),
      new Response(child.stderr).text(),
      child.status,
    ]);
    assert.equal(status.code, 0, `the streamed export fits the capped heap: ${errors.slice(-500)}`);
    const size = Deno.statSync(output).size;
    assert.ok(size > 50_000_000, `${size} bytes`);
    const parsed = JSON.parse(Deno.readTextFileSync(output));
    assert.equal(parsed.messages.length, count);
  });
});

Deno.test("history with a search or kind that matches nothing says so, not 'yet'", async () => {
  await withCliHome(async (env, home) => {
    storeConversation(join(home, "data"), 2);
    for (
      const args of [["history", "--search", "nothing-like-this"], ["history", "--kind", "task"]]
    ) {
      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(args, io), 0, io.err.join(""));
      assert.equal(io.out.join(""), "No conversation matches.\n", args.join(" "));
    }
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["history"], io), 0);
    assert.match(io.out.join(""), /a long one/);
  });
});
