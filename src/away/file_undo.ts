/**
 * Undo of a journaled file change, with the file tools' own rules: only while the file is still
 * what the change left (content hash, else size and time), never over a file that exists now, and
 * every path passes the path guard again. Undo stays inside the places the original change was
 * allowed: it acts only on the real paths the journal recorded, so a path that now resolves
 * elsewhere (a folder swapped for a link after the change) is refused, never followed, and a saved
 * copy is read only from the journal folder. A move goes back, a copy or a new file is removed, a
 * replaced file gets its saved content back, an append is cut off; folders the change created are
 * removed when empty.
 */
import { dirname, join } from "node:path";
import type { ActionJournal, JournalEntry } from "./action_journal.ts";
import type { Clock } from "../core/ports.ts";
import { assertFolderUnchanged, openCheckedForRead } from "../adapters/os/checked_open.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import {
  describeFsError,
  removeEmptyFolders,
  TargetExistsError,
  transferWithoutOverwrite,
  unchangedSince,
  writeAtomically,
} from "../adapters/os/file_changes.ts";
import { journalFolder, savedCopyName } from "./file_journal.ts";

/** Pruning lives with the journaling (the daemon's hourly upkeep needs no undo code). */
export { pruneJournal } from "./file_journal.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";

/** What undo needs. */
export type UndoDependencies = FileAccessDependencies & { journal: ActionJournal; clock: Clock };

/** What an undo did. */
export type UndoResult = { ok: true; entry: JournalEntry; note: string } | {
  ok: false;
  entry?: JournalEntry;
  reason: string;
};

/** Undoes journal entry `id`, or the newest change not undone yet. */
export async function undoChange(deps: UndoDependencies, id?: number): Promise<UndoResult> {
  const entry = id === undefined
    ? deps.journal.recent(200).find((candidate) => !candidate.undoneAt)
    : deps.journal.get(id);
  if (!entry) {
    return { ok: false, reason: id === undefined ? "nothing to undo" : `no change #${id}` };
  }
  if (entry.undoneAt) {
    return {
      ok: false,
      entry,
      reason: `change #${entry.id} was undone already (${entry.undoNote})`,
    };
  }
  if (entry.copyDroppedAt) {
    return {
      ok: false,
      entry,
      reason: `change #${entry.id} can no longer be undone: its saved original was dropped to ` +
        "keep the journal within tools.files.journal_max_mib",
    };
  }
  const guard = pathGuardFor(deps);
  const places = [entry.path, ...(entry.kind === "move" ? [entry.from ?? ""] : [])];
  for (const place of places) {
    const refused = recordedPlaceProblem(guard, place);
    if (refused) return { ok: false, entry, reason: refused };
  }
  if (entry.backup !== undefined && !savedCopyName.test(entry.backup)) {
    return { ok: false, entry, reason: `change #${entry.id} names no saved copy of the journal` };
  }
  const shown = guard.display(entry.path);
  if (!(await unchangedSince(entry.path, entry.after))) {
    return {
      ok: false,
      entry,
      reason: `${shown} changed (or went away) since change #${entry.id}; left as it is`,
    };
  }
  try {
    for (const place of places) await assertFolderUnchanged(dirname(place));
    const note = await revert(entry, guard, deps, shown);
    await removeEmptyFolders(
      entry.createdFolders.filter((folder) => !recordedPlaceProblem(guard, folder)),
    );
    deps.journal.markUndone(entry.id, deps.clock.now(), note);
    return { ok: true, entry, note };
  } catch (error) {
    const reason = error instanceof TargetExistsError
      ? `${guard.display(error.message)} exists now; nothing was overwritten`
      : `cannot undo change #${entry.id}: ${describeFsError(error)}`;
    return { ok: false, entry, reason };
  }
}

async function revert(
  entry: JournalEntry,
  guard: PathGuard,
  deps: UndoDependencies,
  shown: string,
): Promise<string> {
  switch (entry.kind) {
    case "move": {
      const back = { path: entry.from! };
      if (entry.backup) {
        // Tagged and moved in one change (comic_info's file): the original goes back as it was.
        const saved = join(journalFolder(deps.dataDir), entry.backup);
        using source = await Deno.open(saved, { read: true });
        await transferWithoutOverwrite(saved, back.path, { copy: true, source });
        await Deno.remove(entry.path);
        return `moved ${shown} back to ${guard.display(back.path)} as it was before`;
      }
      using source = await openCheckedForRead(entry.path, { guard });
      await transferWithoutOverwrite(entry.path, back.path, { copy: false, source });
      return `moved ${shown} back to ${guard.display(back.path)}`;
    }
    case "copy":
    case "create":
      await Deno.remove(entry.path);
      return `removed ${shown}`;
    case "append":
      if (!(await Deno.lstat(entry.path)).isFile) throw new Error("it is no longer a regular file");
      await Deno.truncate(entry.path, entry.before!.size);
      return `cut ${shown} back to ${entry.before!.size} bytes`;
    case "replace": {
      if (!entry.backup) throw new Error("its earlier content was too large to keep a copy");
      // Streamed back (a replaced comic may be hundreds of megabytes).
      using saved = await Deno.open(join(journalFolder(deps.dataDir), entry.backup));
      await writeAtomically(entry.path, new Uint8Array(), undefined, saved);
      return `restored the earlier content of ${shown}`;
    }
  }
}

/**
 * Why undo may not touch `path`, a real path the journal recorded: the guard refuses writing it
 * now, or it resolves elsewhere (a link swapped in along it after the change).
 */
function recordedPlaceProblem(guard: PathGuard, path: string): string | undefined {
  const verdict = guard.check(path, "write");
  if (!verdict.ok) return verdict.reason;
  if (verdict.path === path) return undefined;
  return `${guard.display(path)} now leads to ${guard.display(verdict.path)} through a link ` +
    "swapped in after the change; undo follows no link";
}
