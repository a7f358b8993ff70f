/**
 * Which runs the next start calls interrupted: a dead PID's and a reused PID's, never a live
 * process's or its own; a conversation continued after the interruption is not interrupted any
 * more; a read-only database is left as it is.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteConversationRuns } from "../../../src/adapters/sqlite/conversation_runs.ts";
import { SqliteConversationStore } from "../../../src/adapters/sqlite/conversation_store.ts";
import { markReadOnly } from "../../../src/adapters/sqlite/write.ts";
import { ManualClock } from "../../../src/adapters/clock.ts";

function setUp() {
  const db = openDatabase(":memory:");
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  const conversations = new SqliteConversationStore(db);
  const alive = new Set<number>();
  const started = new Map<number, Date>();
  const runsOf = (pid: number) =>
    new SqliteConversationRuns(db, clock, {
      pid,
      isAlive: (candidate) => alive.has(candidate),
      processStart: (candidate) => started.get(candidate),
    });
  const ask = (question: string) => {
    const id = conversations.createConversation("ask", question, clock.now());
    conversations.appendMessage(id, { role: "user", content: question, createdAt: clock.now() });
    return id;
  };
  return { db, clock, conversations, alive, started, runsOf, ask };
}

Deno.test("dead and reused PIDs' runs are interrupted; live ones, the own one and ended ones are not", () => {
  const { conversations, alive, started, runsOf, ask, clock } = setUp();
  const dead = ask("killed");
  runsOf(101).begin(dead);
  const live = ask("still running elsewhere");
  alive.add(102);
  started.set(102, new Date("2026-11-23T09:00:00Z"));
  runsOf(102).begin(live);
  const reused = ask("its PID now belongs to another program");
  alive.add(103);
  started.set(103, new Date("2026-11-23T11:00:00Z"));
  runsOf(103).begin(reused);
  const finished = ask("answered");
  runsOf(104).begin(finished)(); // ended
  const own = ask("this process's own");
  const me = runsOf(200);
  me.begin(own);

  clock.advance(60_000);
  assert.deepEqual(me.closeInterrupted().sort(), [dead, reused]);
  const interrupted = conversations.list({ limit: 10 })
    .filter((row) => row.interruptedAt)
    .map((row) => row.id)
    .sort();
  assert.deepEqual(interrupted, [dead, reused]);
  assert.equal(conversations.conversation(dead)?.interruptedAt, "2026-11-23T10:01:00.000Z");
  assert.deepEqual(me.closeInterrupted(), [], "once");

  // Continued later: the conversation is no longer interrupted (its history keeps the answer).
  conversations.appendMessage(dead, { role: "assistant", content: "late", createdAt: clock.now() });
  assert.equal(conversations.conversation(dead)?.interruptedAt, undefined);
});

Deno.test("a read-only database is not written to by the start", () => {
  const { db, runsOf, ask, conversations } = setUp();
  const dead = ask("killed");
  runsOf(101).begin(dead);
  markReadOnly(db, ":memory:", "read-only for this test");
  assert.deepEqual(runsOf(200).closeInterrupted(), []);
  assert.equal(conversations.conversation(dead)?.interruptedAt, undefined);
});
