/**
 * The action journal: every file change a tool made (a move, copy, new file, replaced or appended
 * file), with what was there before and after and which run made it, so the user can undo it
 * (`radar undo`, the dashboard's Undo, the Undo button of a notification). Port and shapes only.
 */
import type { CommandOrigin, ConversationKind } from "../core/tool.ts";
import type { FileState } from "../adapters/os/file_changes.ts";

/** What a journaled change did. */
export type JournalKind = "move" | "copy" | "create" | "replace" | "append";

/** A change to record. */
export interface NewJournalEntry {
  tool: string;
  kind: JournalKind;
  /** The file the change produced or changed (absolute). */
  path: string;
  /** Where a moved or copied file came from (absolute). */
  from?: string;
  /** The file at `path` before a replace or append. */
  before?: FileState;
  /** Name of the saved copy of the replaced content in the journal folder, when kept. */
  backup?: string;
  after: FileState;
  /** Folders the change created, outermost first (undo removes them when empty). */
  createdFolders: string[];
  conversationId?: number;
  /** The kind of run that made it, or the command (`radar library scan --apply`). */
  runKind?: ConversationKind | CommandOrigin;
  /** The approval whose yes ran it, or the grant that allowed it. */
  approvalId?: number;
  grantId?: string;
}

/** A recorded change. */
export interface JournalEntry extends NewJournalEntry {
  id: number;
  at: string;
  undoneAt?: string;
  /** What undo did, or why it could not. */
  undoNote?: string;
  /**
   * When its saved original was dropped to keep the journal within `tools.files.journal_max_mib`
   * (the change can no longer be undone).
   */
  copyDroppedAt?: string;
}

/** A saved original: which change keeps it, under which name in the journal folder, its size. */
export interface SavedCopy {
  id: number;
  backup: string;
  bytes: number;
}

/** Port: the action journal. */
export interface ActionJournal {
  record(entry: NewJournalEntry, at: Date): number;
  get(id: number): JournalEntry | undefined;
  /** Newest first. */
  recent(limit: number): JournalEntry[];
  /** The changes a pending approval's yes made. */
  forApproval(approvalId: number): JournalEntry[];
  markUndone(id: number, at: Date, note: string): boolean;
  /** Deletes entries older than `before`; returns them (their backups are removed too). */
  prune(before: Date): JournalEntry[];
  /** The saved originals still kept, oldest change first. */
  savedCopies(): SavedCopy[];
  /** Records that change `id`'s saved original was dropped (it names none any more). */
  dropCopy(id: number, at: Date): void;
  /** About how many bytes the journal's rows take. */
  rowBytes(): number;
  /** Deletes the oldest rows until the rest take at most `maxBytes`; returns them. */
  trimRows(maxBytes: number): JournalEntry[];
}

/** Whether undo can still act on `entry` (not undone, its saved original not dropped). */
export function undoable(entry: JournalEntry): boolean {
  return !entry.undoneAt && !entry.copyDroppedAt;
}

/** Why a change cannot be undone any more, in a few words (undefined: it can). */
export function notUndoableNote(entry: JournalEntry): string | undefined {
  if (entry.undoneAt) return `undone: ${entry.undoNote}`;
  if (entry.copyDroppedAt) {
    return "not undoable: its saved original was dropped (tools.files.journal_max_mib)";
  }
  return undefined;
}

/** "move ~/a.pdf → ~/Filed/a.pdf" (or "write ~/x"): one change, paths as `display` shows them. */
export function describeChange(entry: JournalEntry, display: (path: string) => string): string {
  return entry.from
    ? `${entry.kind} ${display(entry.from)} → ${display(entry.path)}`
    : `${entry.kind} ${display(entry.path)}`;
}
