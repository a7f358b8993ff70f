/**
 * The stores of "act while I'm away" on a real SQLite file: pending approvals (decided once,
 * expire, survive a reopen), single-use capabilities (only hashes stored), grants, the action
 * journal and delivery receipts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteApprovalStore } from "../../../src/adapters/sqlite/approval_store.ts";
import { SqliteCapabilityStore } from "../../../src/adapters/sqlite/capability_store.ts";
import { SqliteGrantStore } from "../../../src/adapters/sqlite/grant_store.ts";
import { SqliteActionJournal } from "../../../src/adapters/sqlite/action_journal_store.ts";
import { SqliteTaskFirings } from "../../../src/adapters/sqlite/task_firing_store.ts";
import type { PendingAction } from "../../../src/away/approval_ports.ts";

const at = new Date("2026-11-24T03:00:00Z");
const hours = (count: number) => new Date(at.getTime() + count * 3_600_000);

const action: PendingAction & { shownHash: string } = {
  tool: "move_file",
  arguments: '{"source":"~/Downloads/a.pdf","destination":"~/Filed/a.pdf"}',
  kind: "heartbeat",
  reasons: ["destination is not from your own words or a folder you named"],
  tainted: [{ argument: "destination", reason: "not_derived" }],
  untrustedSources: ["events", "tool pdf_extract"],
  privateSources: ["events", "tool pdf_extract"],
  destinations: [],
  namedDestinations: [],
  key: "heartbeat:event:7:approval#1",
  shownHash: "ab".repeat(32),
};

function withDatabase(work: (path: string) => void): void {
  const folder = Deno.makeTempDirSync({ prefix: "radar-approvals-" });
  try {
    work(join(folder, "radar.db"));
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
}

Deno.test("a pending approval survives a reopen, is decided once and cannot outlive its expiry", () => {
  withDatabase((path) => {
    let db = openDatabase(path);
    const first = new SqliteApprovalStore(db).create(action, at, hours(24));
    assert.equal(first.created, true);
    const again = new SqliteApprovalStore(db).create(action, hours(1), hours(25));
    assert.equal(again.created, false, "the same outbox key finds the same approval");
    assert.equal(again.record.id, first.record.id);
    db.close();
    db = openDatabase(path);
    const store = new SqliteApprovalStore(db);
    const stored = store.get(first.record.id)!;
    assert.equal(stored.state, "pending");
    assert.deepEqual(stored.tainted, action.tainted);
    assert.deepEqual(stored.untrustedSources, action.untrustedSources);
    assert.equal(stored.arguments, action.arguments);
    assert.equal(stored.shownHash, action.shownHash, "bound to what it showed");
    const claimed = store.claim(stored.id, hours(2), "phone");
    assert.equal(claimed?.state, "running");
    assert.equal(claimed?.decidedVia, "phone");
    assert.equal(store.claim(stored.id, hours(2), "cli"), undefined, "approved once only");
    assert.equal(store.deny(stored.id, hours(2), "cli"), false);
    store.finish(stored.id, { state: "done", result: "Moved.", outcome: "ok" }, hours(2));
    assert.equal(store.get(stored.id)?.result, "Moved.");
    const late = store.create({ ...action, key: undefined }, at, hours(24)).record;
    assert.equal(store.claim(late.id, hours(24), "cli"), undefined, "expired at its deadline");
    assert.deepEqual(store.expire(hours(24)).map((record) => record.id), [late.id]);
    assert.equal(store.get(late.id)?.state, "expired");
    assert.deepEqual(store.list({ states: ["pending"], limit: 10 }), []);
    db.close();
  });
});

Deno.test("a capability works once, for its one action, until it expires; a forged one never", () => {
  withDatabase((path) => {
    const db = openDatabase(path);
    const tokens = new SqliteCapabilityStore(db);
    const expiresAt = hours(24).toISOString();
    const approve = tokens.issue({ action: "approve", target: 4, expiresAt }, at);
    const deny = tokens.issue({ action: "deny", target: 4, expiresAt }, at);
    const other = tokens.issue({ action: "approve", target: 5, expiresAt }, at);
    assert.match(approve, /^[A-Za-z0-9_-]{43}$/);
    const stored = db.prepare("SELECT hash FROM capabilities").all().map((row) => row.hash);
    assert.ok(!stored.includes(approve), "only hashes are stored");
    assert.deepEqual(tokens.peek(approve, at), { action: "approve", target: 4, expiresAt });
    assert.deepEqual(tokens.redeem(approve, hours(1))?.action, "approve");
    assert.equal(tokens.redeem(approve, hours(1)), undefined, "reused");
    assert.equal(tokens.redeem(deny, hours(1)), undefined, "the other decision died with it");
    // One character changed (a token ending in "A" had 1 in 16 to be "forged" into itself).
    const forged = `${other.slice(0, -1)}${other.endsWith("A") ? "B" : "A"}`;
    assert.equal(tokens.redeem(forged, hours(1)), undefined, "forged");
    assert.equal(tokens.redeem("../../etc/passwd", hours(1)), undefined);
    assert.equal(tokens.redeem(other, hours(24)), undefined, "expired");
    assert.equal(tokens.prune(hours(25)), 3);
    db.close();
  });
});

Deno.test("grants are stored, counted and revoked", () => {
  withDatabase((path) => {
    const db = openDatabase(path);
    const grants = new SqliteGrantStore(db);
    const grant = grants.add({
      tool: "move_file",
      arguments: { source: "~/Downloads/*.pdf", destination: "~/Documents/Filed/**" },
      note: "file PDFs",
      approvalId: 3,
    }, at);
    assert.equal(grant.id, "1");
    assert.equal(grant.origin, "user");
    grants.recordUse(grant.id, hours(1));
    grants.recordUse(grant.id, hours(2));
    assert.equal(grants.get("1")?.uses, 2);
    assert.equal(grants.get("1")?.lastUsedAt, hours(2).toISOString());
    assert.equal(grants.get("config:1"), undefined);
    assert.equal(grants.revoke("1"), true);
    assert.equal(grants.revoke("1"), false);
    assert.deepEqual(grants.list(), []);
    db.close();
  });
});

Deno.test("the action journal records a change, marks it undone once and prunes by age", () => {
  withDatabase((path) => {
    const db = openDatabase(path);
    const journal = new SqliteActionJournal(db);
    const id = journal.record({
      tool: "move_file",
      kind: "move",
      path: "/home/u/Filed/a.pdf",
      from: "/home/u/Downloads/a.pdf",
      after: { size: 10, mtimeMs: 1, sha256: "ab" },
      createdFolders: ["/home/u/Filed"],
      runKind: "heartbeat",
      approvalId: 2,
    }, at);
    assert.equal(journal.get(id)?.from, "/home/u/Downloads/a.pdf");
    assert.deepEqual(journal.get(id)?.createdFolders, ["/home/u/Filed"]);
    assert.equal(journal.markUndone(id, hours(1), "moved back"), true);
    assert.equal(journal.markUndone(id, hours(2), "again"), false);
    assert.equal(journal.get(id)?.undoNote, "moved back");
    assert.deepEqual(journal.prune(hours(1)).map((entry) => entry.id), [id]);
    assert.deepEqual(journal.recent(5), []);
    db.close();
  });
});

Deno.test("task firings record missed, caught-up and retried runs", () => {
  withDatabase((path) => {
    const db = openDatabase(path);
    const firings = new SqliteTaskFirings(db);
    firings.fire({
      taskId: 1,
      dueAt: at.toISOString(),
      caughtUp: false,
      retried: false,
      state: "missed",
    }, hours(5));
    const late = firings.fire(
      { taskId: 1, dueAt: hours(1).toISOString(), caughtUp: true, retried: false },
      hours(5),
    );
    firings.finish(late, { state: "ran", runId: 9, conversationId: undefined });
    const [newest, oldest] = firings.recent(10, 1);
    assert.equal(newest.state, "ran");
    assert.equal(newest.caughtUp, true);
    assert.equal(newest.runId, 9);
    assert.equal(oldest.state, "missed");
    assert.deepEqual(firings.recent(10, 2), []);
    db.close();
  });
});
