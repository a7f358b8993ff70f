/**
 * A full disk: every write either commits or fails with one line — never "Remembered #22." for a
 * fact that was not stored (node:sqlite's `.get()` on `INSERT … RETURNING` swallowed the error).
 * Uses a real tmpfs when root; otherwise a read-only database file is the injected failing file.
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
import {
  canMountTmpfs,
  fillDisk,
  mountTmpfs,
  type Tmpfs,
  tmpfsMounts,
  tmpfsOrNotRoot,
  withTmpfsDatabase,
} from "./tmpfs.ts";
import { needing } from "../../helpers/system_parts.ts";

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

Deno.test(needing([tmpfsOrNotRoot], {
  name: "a write to a read-only database file throws one line naming the file",
  // Without a tmpfs, permissions make the file read-only — which root ignores.
  fn() {
    // The non-root variant of the full-disk test: the failing file is injected by permissions
    // (as root, a read-only tmpfs remount does the same).
    const dir = Deno.makeTempDirSync();
    let readOnly: Tmpfs | undefined;
    try {
      let path = join(dir, "radar.db");
      openDatabase(path).close();
      if (canMountTmpfs) {
        readOnly = mountTmpfs(4096);
        Deno.copyFileSync(path, join(readOnly.path, "radar.db"));
        readOnly.makeReadOnly();
        path = join(readOnly.path, "radar.db");
      } else {
        Deno.chmodSync(path, 0o444);
        Deno.chmodSync(dir, 0o555);
      }
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
    } finally {
      Deno.chmodSync(dir, 0o755);
      Deno.removeSync(dir, { recursive: true });
      readOnly?.unmount();
    }
  },
}));
