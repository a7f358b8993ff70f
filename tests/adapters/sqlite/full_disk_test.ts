/**
 * A full disk: every write either commits or fails with one line — never "Remembered #22." for a
 * fact that was not stored (node:sqlite's `.get()` on `INSERT … RETURNING` swallowed the error).
 * Uses a real tmpfs as root; a read-only database file is the failing file for a normal user (the
 * suite run as root runs that test as the test user).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../../src/adapters/sqlite/conversation_store.ts";
import { SqliteEventQueue } from "../../../src/adapters/sqlite/event_queue.ts";
import { SqliteFactStore } from "../../../src/adapters/sqlite/fact_store.ts";
import { StorageError } from "../../../src/adapters/sqlite/write.ts";
import { runRadar } from "../../helpers/radar_process.ts";
import { fillDisk, mountTmpfs, tmpfsMounts, withTmpfsDatabase } from "./tmpfs.ts";
import { needing, normalUser } from "../../helpers/system_parts.ts";

Deno.test(needing([tmpfsMounts], {
  name: "memory add on a full disk exits 1 with one line and claims nothing (real tmpfs)",
  async fn() {
    const disk = mountTmpfs(1024);
    const home = disk.path;
    const dataDir = join(home, "data");
    try {
      const first = await runRadar(home, ["memory", "add", "kept fact"]);
      assert.equal(first.code, 0, first.stderr);
      fillDisk(disk.path);
      for (let attempt = 0; attempt < 2; attempt++) {
        const added = await runRadar(home, ["memory", "add", `lost fact ${attempt}`]);
        assert.equal(added.code, 1, added.stdout + added.stderr);
        assert.doesNotMatch(added.stdout, /Remembered/);
        const lines = added.stderr.trim().split("\n");
        assert.equal(lines.length, 1, added.stderr);
        assert.match(lines[0], /^radar: Cannot save the fact: the disk is full/);
        assert.ok(lines[0].includes(join(dataDir, "radar.db")), lines[0]);
      }
      // Reads still work on the full disk and show exactly what was acknowledged.
      const listed = await runRadar(home, ["memory", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /kept fact/);
      assert.doesNotMatch(listed.stdout, /lost fact/);
    } finally {
      disk.unmount();
    }
  },
}));

Deno.test(needing([tmpfsMounts], {
  name: "a full disk under an open database (a running daemon) fails the write with one line",
  async fn() {
    const disk = mountTmpfs(1024);
    const home = disk.path;
    const dataDir = join(home, "data");
    try {
      assert.equal((await runRadar(home, ["memory", "add", "kept fact"])).code, 0);
      // Another connection keeps radar.db-wal and -shm in place, as `radar serve` does.
      const daemon = new DatabaseSync(join(dataDir, "radar.db"));
      daemon.prepare("SELECT COUNT(*) FROM facts").get();
      try {
        fillDisk(disk.path);
        const added = await runRadar(home, ["memory", "add", "x".repeat(20_000)]);
        assert.equal(added.code, 1, added.stdout + added.stderr);
        assert.doesNotMatch(added.stdout, /Remembered/);
        assert.match(
          added.stderr,
          /^radar: Cannot save the fact: the disk is full.*radar\.db\)\n$/,
        );
        assert.equal(
          (daemon.prepare("SELECT COUNT(*) AS n FROM facts").get() as { n: number }).n,
          1,
        );
      } finally {
        daemon.close();
      }
    } finally {
      disk.unmount();
    }
  },
}));

Deno.test(needing([tmpfsMounts], {
  name: "event queue, conversation and fact writes throw a StorageError on a full disk",
  fn() {
    withTmpfsDatabase((db, disk) => {
      const queue = new SqliteEventQueue(db);
      const conversations = new SqliteConversationStore(db);
      const facts = new SqliteFactStore(db);
      const at = new Date("2026-11-23T10:00:00Z");
      const conversationId = conversations.createConversation("chat", "kept", at);
      assert.ok(queue.enqueue({ source: "files", kind: "created", summary: "kept" }, at));
      fillDisk(disk.path);
      const big = "y".repeat(3000);
      const attempts: Array<[string, () => unknown]> = [
        ["event", () => queue.enqueue({ source: "files", kind: "created", summary: big }, at)],
        [
          "message",
          () =>
            conversations.appendMessage(conversationId, {
              role: "user",
              content: big,
              createdAt: at,
            }),
        ],
        ["conversation", () => conversations.createConversation("ask", big, at)],
        ["fact", () => facts.addFact({ category: "learned_fact", content: big }, at)],
      ];
      for (const [label, attempt] of attempts) {
        // Each write either commits (while a WAL page is still free) or throws; never lies.
        let failed = false;
        for (let i = 0; i < 200 && !failed; i++) {
          try {
            attempt();
          } catch (error) {
            assert.ok(error instanceof StorageError, `${label}: ${error}`);
            assert.equal(error.failure, "disk_full", `${label}: ${error.message}`);
            failed = true;
          }
        }
        assert.ok(failed, `${label} never reported the full disk`);
      }
      const stored = (db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
      assert.equal(queue.pendingCount(), Number(stored));
      assert.equal(conversations.messages(conversationId).length, countRows(db, "messages"));
    });
  },
}));

function countRows(db: DatabaseSync, table: string): number {
  return Number((db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);
}

Deno.test(needing([tmpfsMounts], {
  name: "a write to a read-only database file (a read-only tmpfs) throws one line naming the file",
  fn() {
    // The file copied onto a tmpfs that is then remounted read-only.
    const dir = Deno.makeTempDirSync();
    const readOnly = mountTmpfs(4096);
    try {
      openDatabase(join(dir, "radar.db")).close();
      Deno.copyFileSync(join(dir, "radar.db"), join(readOnly.path, "radar.db"));
      readOnly.makeReadOnly();
      assertReadOnlyWriteFails(join(readOnly.path, "radar.db"));
    } finally {
      readOnly.unmount();
      Deno.removeSync(dir, { recursive: true });
    }
  },
}));

Deno.test(needing([normalUser(import.meta.url)], {
  name: "a write to a database file read-only by its permissions throws one line naming the file",
  // Root ignores permissions: as root this runs as the test user.
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "radar.db");
    try {
      openDatabase(path).close();
      Deno.chmodSync(path, 0o444);
      Deno.chmodSync(dir, 0o555);
      assertReadOnlyWriteFails(path);
    } finally {
      Deno.chmodSync(dir, 0o755);
      Deno.removeSync(dir, { recursive: true });
    }
  },
}));

/** Reads work on the read-only file at `path`; adding a fact throws one StorageError line. */
function assertReadOnlyWriteFails(path: string): void {
  const db = openDatabase(path);
  try {
    const facts = new SqliteFactStore(db);
    assert.deepEqual(facts.listFacts({ limit: 5 }), []);
    assert.throws(
      () => facts.addFact({ category: "learned_fact", content: "x" }, new Date()),
      (error: unknown) =>
        error instanceof StorageError && error.failure === "read_only" &&
        error.message.includes(path) && !error.message.includes("\n"),
    );
  } finally {
    db.close();
  }
}
