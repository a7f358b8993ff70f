/** A run's outbox keys: a notification cut short by a dead sender is sent again; nothing else is. */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteOutbox } from "../../src/adapters/sqlite/outbox_store.ts";
import { runSideEffects } from "../../src/core/run_side_effects.ts";

const clock = { now: () => new Date("2026-11-27T08:00:00Z") };
const alive = new Set([100, 200]);
const isAlive = (pid: number) => alive.has(pid);

Deno.test("a notification claimed by a process that died is claimed again; a sent one never", () => {
  const db = openDatabase(":memory:");
  try {
    const outbox = new SqliteOutbox(db);
    const crashed = runSideEffects(outbox, "heartbeat:event:7", clock, 100, isAlive);
    const first = crashed.begin("notify", "New file: a.pdf");
    const second = crashed.begin("notify", "New file: b.pdf");
    assert.equal(first.state, "new");
    assert.equal(second.state, "new");
    if (second.state === "new") second.done({ status: 200 });
    alive.delete(100); // killed between claiming #1 and ntfy's answer

    const redelivered = runSideEffects(outbox, "heartbeat:event:7", clock, 200, isAlive);
    const again = redelivered.begin("notify", "New file: a.pdf");
    assert.equal(again.state, "new", "the interrupted notification goes out again");
    if (again.state === "new") again.done({ status: 200 });
    assert.equal(redelivered.begin("notify", "New file: b.pdf").state, "sent");
    const entry = outbox.get("heartbeat:event:7:notify#1")!;
    assert.deepEqual([entry.state, entry.attempts, entry.pid], ["sent", 2, 200]);
  } finally {
    db.close();
  }
});

Deno.test("a claim of a living process, or of another kind, is left as it is", () => {
  const db = openDatabase(":memory:");
  try {
    const outbox = new SqliteOutbox(db);
    alive.add(100);
    runSideEffects(outbox, "task:1:run:1", clock, 100, isAlive).begin("notify", "hello");
    runSideEffects(outbox, "task:1:run:1", clock, 100, isAlive).begin("send_email", "hi");
    const other = runSideEffects(outbox, "task:1:run:1", clock, 200, isAlive);
    assert.equal(other.begin("notify", "hello").state, "unknown", "its sender is still running");
    alive.delete(100);
    assert.equal(other.begin("send_email", "hi").state, "unknown", "only notifications repeat");
  } finally {
    db.close();
  }
});
