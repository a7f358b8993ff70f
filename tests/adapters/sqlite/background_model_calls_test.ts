/**
 * The run log's spending (`spentSince`) holds heartbeat and task runs AND recorded background
 * model calls (summaries, digests), oldest first; calls that spent nothing are not rows.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteRunStore } from "../../../src/adapters/sqlite/run_store.ts";

Deno.test("spentSince merges runs and background model calls by start time", () => {
  const db = openDatabase(":memory:");
  try {
    const runs = new SqliteRunStore(db);
    const claim = runs.claimHeartbeat("schedule", new Date("2026-11-23T09:00:00Z"), 1, () => true);
    assert.ok("runId" in claim);
    runs.finish(
      claim.runId,
      { outcome: "ran", promptTokens: 100, completionTokens: 20 },
      new Date("2026-11-23T09:01:00Z"),
    );
    runs.recordBackgroundCall({
      kind: "digest",
      startedAt: new Date("2026-11-23T07:00:00Z"),
      promptTokens: 412,
      completionTokens: 96,
      detail: "day 2026-11-22",
    });
    runs.recordBackgroundCall({
      kind: "summary",
      startedAt: new Date("2026-11-23T10:00:00Z"),
      promptTokens: 11,
      completionTokens: 18,
    });
    runs.recordBackgroundCall({
      kind: "summary",
      startedAt: new Date("2026-11-22T10:00:00Z"),
      promptTokens: 5,
      completionTokens: 5,
    });
    assert.deepEqual(runs.spentSince(new Date("2026-11-23T00:00:00Z")), [
      { kind: "digest", taskId: undefined, startedAt: "2026-11-23T07:00:00.000Z", tokens: 508 },
      { kind: "heartbeat", taskId: undefined, startedAt: "2026-11-23T09:00:00.000Z", tokens: 120 },
      { kind: "summary", taskId: undefined, startedAt: "2026-11-23T10:00:00.000Z", tokens: 29 },
    ]);
  } finally {
    db.close();
  }
});
