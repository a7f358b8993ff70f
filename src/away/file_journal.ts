/**
 * Journaling of the file tools' changes: the state before (a copy of replaced content in
 * `<data>/journal/`, owner-only, when it is not too large) and after, and which run made them.
 * A change that kept an original brings the journal back within `tools.files.journal_max_mib`.
 */
import { join } from "node:path";
import type { ActionJournal, NewJournalEntry } from "./action_journal.ts";
import type { Clock } from "../core/ports.ts";
import type { ToolContext } from "../core/tool.ts";
import { type FileState, fileState } from "../adapters/os/file_changes.ts";
import { boundJournal, journalMaxBytes } from "./journal_bound.ts";

/** Replaced files larger than this are journaled without a copy (that change cannot be undone). */
export const maxBackupBytes = 32 * 1024 * 1024;

/** What journaling needs (absent journal: nothing is recorded). */
export interface FileJournalDependencies {
  journal?: ActionJournal;
  dataDir: string;
  clock: Clock;
  /** `tools.files.journal_max_mib`, read at each change (absent: bounded by the hourly prune). */
  config?: { tools: { files: { journal_max_mib: number } } };
}

/** The folder of saved copies: `<data>/journal` (inside Radar's data, which no tool may touch). */
export function journalFolder(dataDir: string): string {
  return join(dataDir, "journal");
}

/** The state of a file about to be replaced, with a saved copy of it when small enough. */
export async function saveBeforeReplace(
  deps: FileJournalDependencies,
  path: string,
): Promise<{ before: FileState; backup?: string }> {
  const before = await fileState(path);
  if (!deps.journal || before.size > maxBackupBytes) return { before };
  const folder = journalFolder(deps.dataDir);
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const backup = `${crypto.randomUUID()}.before`;
  await Deno.copyFile(path, join(folder, backup));
  await Deno.chmod(join(folder, backup), 0o600);
  return { before, backup };
}

/** Records a change made by a tool call of this run; returns its journal id. */
export async function recordChange(
  deps: FileJournalDependencies,
  context: ToolContext,
  entry: Omit<NewJournalEntry, "after" | "conversationId" | "runKind" | "approvalId">,
): Promise<number | undefined> {
  if (!deps.journal) return undefined;
  const id = deps.journal.record({
    ...entry,
    after: await fileState(entry.path),
    conversationId: context.conversationId,
    runKind: context.origin ?? context.kind,
    approvalId: context.approvalId,
  }, deps.clock.now());
  if (entry.backup && deps.config) {
    await boundJournal({
      journal: deps.journal,
      folder: journalFolder(deps.dataDir),
      clock: deps.clock,
      maxBytes: journalMaxBytes(deps.config),
    });
  }
  return id;
}

/** The names saved copies have in the journal folder (nothing that leads out of it). */
export const savedCopyName = /^[\w-]+\.before$/;

/**
 * Deletes journal entries older than `days` and their saved copies, then keeps the rest within
 * `maxBytes` (`journal_bound.ts`); returns how many entries went.
 */
export async function pruneJournal(
  deps: { journal: ActionJournal; dataDir: string; clock: Clock },
  days: number,
  maxBytes: number,
): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - days * 86_400_000);
  const pruned = deps.journal.prune(before);
  for (const entry of pruned) {
    if (entry.backup && savedCopyName.test(entry.backup)) {
      await Deno.remove(join(journalFolder(deps.dataDir), entry.backup)).catch(() => {});
    }
  }
  const folder = journalFolder(deps.dataDir);
  const trimmed = await boundJournal({
    journal: deps.journal,
    folder,
    clock: deps.clock,
    maxBytes,
  });
  return pruned.length + trimmed.droppedRows;
}
