/** SQLite rows of GitHub items already queued (by kind + id, with the version seen). */
import { statement } from "./statements.ts";
import type { DatabaseSync } from "node:sqlite";
import type { GitHubSeen } from "../../sources/source_stores.ts";
import { write } from "./write.ts";

/** The GitHub dedup store. */
export class SqliteGitHubStore implements GitHubSeen {
  constructor(private readonly db: DatabaseSync) {}

  /** Whether this item (or this version of it) was not queued before. */
  isNew(kind: string, id: string, version: string): boolean {
    const row = statement(this.db, "SELECT version FROM github_seen WHERE kind = ? AND id = ?")
      .get(kind, id) as { version: string } | undefined;
    return row === undefined || row.version !== version;
  }

  /** Records an item as seen at `version`. */
  mark(kind: string, id: string, version: string, at: Date): void {
    write(
      this.db,
      "the seen GitHub item",
      `INSERT INTO github_seen (kind, id, version, seen_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (kind, id) DO UPDATE SET version = ?3, seen_at = ?4`,
      kind,
      id,
      version,
      at.toISOString(),
    );
  }

  /** Forgets items of `kind` that are gone (a PR that fails again later is news again). */
  forgetExcept(kind: string, ids: readonly string[]): void {
    const keep = new Set(ids);
    const rows = statement(this.db, "SELECT id FROM github_seen WHERE kind = ?").all(kind) as Array<
      { id: string }
    >;
    for (const row of rows) {
      if (!keep.has(row.id)) {
        write(
          this.db,
          "the GitHub cleanup",
          "DELETE FROM github_seen WHERE kind = ? AND id = ?",
          kind,
          row.id,
        );
      }
    }
  }
}
