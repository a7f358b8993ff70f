/**
 * The action journal under one total bound (`tools.files.journal_max_mib`): its rows and the
 * saved originals together. Past it the oldest originals go first (each such change is then
 * recorded as no longer undoable), and when the rows alone are still too many, the oldest rows.
 * Run after every change that kept an original and with the hourly prune.
 */
import { join } from "node:path";
import type { ActionJournal } from "./action_journal.ts";
import type { Clock } from "../core/ports.ts";

/** What the bound needs. */
export interface JournalBoundDependencies {
  journal: ActionJournal;
  /** The folder of saved originals (`journalFolder(dataDir)`). */
  folder: string;
  clock: Clock;
  maxBytes: number;
}

/** What keeping the bound dropped. */
export interface JournalTrim {
  droppedCopies: number;
  droppedRows: number;
}

/**
 * Brings the journal within its bound (an original's size is the size the file had when it was
 * kept: no file is looked at until one is dropped); never throws for a file already gone.
 */
export async function boundJournal(deps: JournalBoundDependencies): Promise<JournalTrim> {
  const copies = deps.journal.savedCopies();
  const rows = deps.journal.rowBytes();
  let total = rows + copies.reduce((sum, copy) => sum + copy.bytes, 0);
  let droppedCopies = 0;
  for (const copy of copies) {
    if (total <= deps.maxBytes) break;
    deps.journal.dropCopy(copy.id, deps.clock.now());
    if (/^[\w-]+\.before$/.test(copy.backup)) {
      await Deno.remove(join(deps.folder, copy.backup)).catch(() => {});
    }
    total -= copy.bytes;
    droppedCopies++;
  }
  const droppedRows = rows > deps.maxBytes ? deps.journal.trimRows(deps.maxBytes).length : 0;
  return { droppedCopies, droppedRows };
}

/** `tools.files.journal_max_mib` in bytes. */
export function journalMaxBytes(config: { tools: { files: { journal_max_mib: number } } }): number {
  return config.tools.files.journal_max_mib * 1024 * 1024;
}
