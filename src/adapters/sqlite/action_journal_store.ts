/** The action journal in SQLite: every file change a tool made, for undo. */
import type { DatabaseSync } from "node:sqlite";
import type {
  ActionJournal,
  JournalEntry,
  JournalKind,
  NewJournalEntry,
  SavedCopy,
} from "../../away/action_journal.ts";
import type { FileState } from "../os/file_changes.ts";
import { selectAll, selectOne } from "./rows.ts";
import { deleteBefore, insert, transaction, write } from "./write.ts";

interface JournalRow {
  id: number;
  at: string;
  tool: string;
  kind: JournalKind;
  path: string;
  from_path: string | null;
  before_state: string | null;
  backup: string | null;
  after_state: string;
  created_folders: string;
  conversation_id: number | null;
  run_kind: string | null;
  approval_id: number | null;
  grant_id: string | null;
  undone_at: string | null;
  undo_note: string | null;
  copy_dropped_at: string | null;
}

function toEntry(row: JournalRow): JournalEntry {
  return {
    id: Number(row.id),
    at: row.at,
    tool: row.tool,
    kind: row.kind,
    path: row.path,
    from: row.from_path ?? undefined,
    before: row.before_state ? JSON.parse(row.before_state) as FileState : undefined,
    backup: row.backup ?? undefined,
    after: JSON.parse(row.after_state) as FileState,
    createdFolders: JSON.parse(row.created_folders) as string[],
    conversationId: row.conversation_id === null ? undefined : Number(row.conversation_id),
    runKind: (row.run_kind ?? undefined) as JournalEntry["runKind"],
    approvalId: row.approval_id === null ? undefined : Number(row.approval_id),
    grantId: row.grant_id ?? undefined,
    undoneAt: row.undone_at ?? undefined,
    undoNote: row.undo_note ?? undefined,
    copyDroppedAt: row.copy_dropped_at ?? undefined,
  };
}

/** The `action_journal` table. */
export class SqliteActionJournal implements ActionJournal {
  constructor(private readonly db: DatabaseSync) {}

  /** Records a change; returns its id. */
  record(entry: NewJournalEntry, at: Date): number {
    return insert(
      this.db,
      "the action journal entry",
      `INSERT INTO action_journal (at, tool, kind, path, from_path, before_state, backup, after_state,
         created_folders, conversation_id, run_kind, approval_id, grant_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      at.toISOString(),
      entry.tool,
      entry.kind,
      entry.path,
      entry.from ?? null,
      entry.before ? JSON.stringify(entry.before) : null,
      entry.backup ?? null,
      JSON.stringify(entry.after),
      JSON.stringify(entry.createdFolders),
      entry.conversationId ?? null,
      entry.runKind ?? null,
      entry.approvalId ?? null,
      entry.grantId ?? null,
    );
  }

  /** One entry. */
  get(id: number): JournalEntry | undefined {
    return selectOne(this.db, toEntry, "SELECT * FROM action_journal WHERE id = ?", id);
  }

  /** Newest first. */
  recent(limit: number): JournalEntry[] {
    const sql = "SELECT * FROM action_journal ORDER BY id DESC LIMIT ?";
    return selectAll(this.db, toEntry, sql, limit);
  }

  /** The changes an approval's yes made, oldest first. */
  forApproval(approvalId: number): JournalEntry[] {
    const sql = "SELECT * FROM action_journal WHERE approval_id = ? ORDER BY id";
    return selectAll(this.db, toEntry, sql, approvalId);
  }

  /** Marks an entry undone (once). */
  markUndone(id: number, at: Date, note: string): boolean {
    return write(
      this.db,
      "the action journal entry",
      "UPDATE action_journal SET undone_at = ?, undo_note = ? WHERE id = ? AND undone_at IS NULL",
      at.toISOString(),
      note,
      id,
    ).changes > 0;
  }

  /** Deletes entries older than `before`; returns them. */
  prune(before: Date): JournalEntry[] {
    return transaction(this.db, () => {
      const sql = "SELECT * FROM action_journal WHERE at < ? ORDER BY id";
      const entries = selectAll(this.db, toEntry, sql, before.toISOString());
      deleteBefore(
        this.db,
        "the action journal cleanup",
        "DELETE FROM action_journal WHERE at < ?",
        before,
      );
      return entries;
    }, "the action journal cleanup");
  }

  /** The saved originals still kept, oldest change first. */
  savedCopies(): SavedCopy[] {
    return selectAll(
      this.db,
      (row) => ({ id: Number(row.id), backup: String(row.backup), bytes: Number(row.bytes) }),
      `SELECT id, backup, COALESCE(json_extract(before_state, '$.size'), 0) AS bytes
       FROM action_journal WHERE backup IS NOT NULL ORDER BY id`,
    );
  }

  /** Records that change `id`'s saved original was dropped. */
  dropCopy(id: number, at: Date): void {
    write(
      this.db,
      "the action journal entry",
      "UPDATE action_journal SET backup = NULL, copy_dropped_at = ? WHERE id = ?",
      at.toISOString(),
      id,
    );
  }

  /** About how many bytes the rows take (their text and a fixed overhead each). */
  rowBytes(): number {
    const row = selectOne(
      this.db,
      (found) => Number(found.bytes ?? 0),
      `SELECT SUM(${rowBytes}) AS bytes FROM action_journal`,
    );
    return row ?? 0;
  }

  /** Deletes the oldest rows until the rest take at most `maxBytes`; returns them. */
  trimRows(maxBytes: number): JournalEntry[] {
    return transaction(this.db, () => {
      const over = `SELECT id FROM (
          SELECT id, SUM(${rowBytes}) OVER (ORDER BY id DESC) AS kept FROM action_journal
        ) WHERE kept > ?`;
      const entries = selectAll(
        this.db,
        toEntry,
        `SELECT * FROM action_journal WHERE id IN (${over}) ORDER BY id`,
        maxBytes,
      );
      write(
        this.db,
        "the action journal cleanup",
        `DELETE FROM action_journal WHERE id IN (${over})`,
        maxBytes,
      );
      return entries;
    }, "the action journal cleanup");
  }
}

/** A row's bytes, about: its text columns and 64 for the rest. */
const rowBytes = `64 + length(tool) + length(path) + COALESCE(length(from_path), 0) +
  COALESCE(length(before_state), 0) + COALESCE(length(backup), 0) + length(after_state) +
  length(created_folders) + COALESCE(length(undo_note), 0)`;
