/**
 * A real Radar database with many facts, then damaged the way disks and bad copies damage files:
 * whole pages in the middle overwritten with noise. Which pages hold which table comes from
 * SQLite's own `dbstat`, so a test knows exactly how many rows the damage took.
 */
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { DatabaseSync } from "node:sqlite";
import { factCategories } from "../../src/core/ports.ts";

/** One page of a table or index, as `dbstat` lists it. */
export interface PageInfo {
  name: string;
  pageno: number;
  pagetype: string;
  ncell: number;
}

/** Writes `count` facts (and a few conversations) into a new database at `path`; returns them. */
export function createFactsDatabase(path: string, count: number): Map<number, string> {
  const db = openDatabase(path);
  const facts = new Map<number, string>();
  try {
    const store = new SqliteFactStore(db);
    const conversations = new SqliteConversationStore(db);
    const at = new Date("2026-11-23T10:00:00Z");
    db.exec("BEGIN");
    for (let index = 0; index < count; index++) {
      const content = `Fact ${index}: the ${["blue", "green", "red"][index % 3]} folder holds ` +
        `scan ${index} of the tax papers, filed under ${index % 97}.`;
      const id = store.addFact({ category: factCategories[index % 3], content }, at);
      facts.set(id, content);
    }
    for (let index = 0; index < 20; index++) {
      const id = conversations.createConversation("ask", `Question ${index}`, at);
      conversations.appendMessage(id, {
        role: "user",
        content: `question ${index}`,
        createdAt: at,
      });
    }
    db.exec("COMMIT");
  } finally {
    db.close(); // the WAL is checkpointed into the file
  }
  return facts;
}

/** The pages of `path` (every table and index), in page order. */
export function pagesOf(path: string): PageInfo[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(
      "SELECT name, pageno, pagetype, ncell FROM dbstat ORDER BY pageno",
    ).all() as unknown as PageInfo[];
  } finally {
    db.close();
  }
}

/** Overwrites whole pages of the file with noise. */
export function scramblePages(path: string, pages: readonly number[], pageSize = 4096): void {
  const file = Deno.openSync(path, { read: true, write: true });
  try {
    for (const page of pages) {
      const noise = new Uint8Array(pageSize);
      for (let offset = 0; offset < pageSize; offset += 65536) {
        crypto.getRandomValues(noise.subarray(offset, Math.min(pageSize, offset + 65536)));
      }
      file.seekSync((page - 1) * pageSize, Deno.SeekMode.Start);
      let written = 0;
      while (written < noise.length) written += file.writeSync(noise.subarray(written));
    }
  } finally {
    file.close();
  }
}
