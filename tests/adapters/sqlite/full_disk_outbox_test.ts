/**
 * The outbox and task-claim writes (the "nothing twice" records) and statements inside a
 * transaction fail on a full disk with the same one-line StorageError as every other store.
 * Before, they ran raw statements: a full disk surfaced as a bare "database or disk is full"
 * (printed as "unexpected failure"), and a transaction rethrew its statement's raw error.
 * Real tmpfs (root).
 */
import assert from "node:assert/strict";
import { transaction } from "../../../src/adapters/sqlite/database.ts";
import { SqliteOutbox } from "../../../src/adapters/sqlite/outbox_store.ts";
import { SqliteTaskClaimStore } from "../../../src/adapters/sqlite/task_claim_store.ts";
import { StorageError } from "../../../src/adapters/sqlite/write.ts";
import { fillDisk, tmpfsMounts, withTmpfsDatabase } from "./tmpfs.ts";
import { needing } from "../../helpers/system_parts.ts";

const at = new Date("2026-11-23T10:00:00Z");

/** Runs `attempt` until it throws (a free WAL page may let a few commit); returns the error. */
function firstFailure(label: string, attempt: (index: number) => unknown): unknown {
  for (let index = 0; index < 500; index++) {
    try {
      attempt(index);
    } catch (error) {
      return error;
    }
  }
  assert.fail(`${label} never reported the full disk`);
}

function assertDiskFull(label: string, error: unknown): void {
  assert.ok(error instanceof StorageError, `${label}: ${error}`);
  assert.equal(error.failure, "disk_full", `${label}: ${error.message}`);
  assert.match(error.message, /^Cannot save .*: the disk is full/);
}

Deno.test(needing([tmpfsMounts], {
  name: "outbox and task-claim writes throw a one-line StorageError on a full disk",
  fn() {
    withTmpfsDatabase((db, disk) => {
      const outbox = new SqliteOutbox(db);
      const claims = new SqliteTaskClaimStore(db);
      assert.equal(
        outbox.claim({ key: "kept", kind: "notify", summary: "", at, pid: 1 }),
        undefined,
      );
      db.exec(
        "INSERT INTO tasks (id, name, message, schedule_kind, schedule, created_at) " +
          "VALUES (1, 'daily', 'summarise', 'every', '1440', '2026-11-23T10:00:00Z')",
      );
      fillDisk(disk.path);
      const summary = "z".repeat(500);
      assertDiskFull(
        "outbox claim",
        firstFailure(
          "outbox claim",
          (index) => outbox.claim({ key: `k${index}`, kind: "notify", summary, at, pid: 1 }),
        ),
      );
      assertDiskFull(
        "task claim",
        firstFailure(
          "task claim",
          (index) =>
            claims.record({ taskId: 1, runId: index, dueAt: `${index}`.padEnd(400, "x") }, at),
        ),
      );
    });
  },
}));

Deno.test(needing([tmpfsMounts], {
  name: "a statement inside a transaction that hits the full disk throws a StorageError",
  fn() {
    withTmpfsDatabase((db, disk) => {
      db.exec("CREATE TABLE filler (text TEXT)");
      // A tiny page cache makes a large change spill to the -wal before COMMIT.
      db.exec("PRAGMA cache_size = 2");
      fillDisk(disk.path);
      const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
      const error = firstFailure("transaction", () =>
        transaction(db, () => {
          for (let row = 0; row < 200; row++) insert.run("w".repeat(4000));
        }, "the filler"));
      assertDiskFull("transaction", error);
      assert.equal(db.isTransaction, false, "rolled back");
    });
  },
}));
