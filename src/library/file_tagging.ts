/**
 * One metadata change of comic_info as a journaled file change: the document subprocess writes the
 * new version (`produce`), which replaces the original atomically, or, when the call files it, goes
 * straight to its library place (tag and move as one change, one journal entry, one undo). The
 * original is kept in the journal folder for undo. Outside the writable folders the change needs a
 * yes (the person in chat, a standing grant, or a pending approval), asked once with the place.
 */
import { failed, refused, type ToolContext, type ToolOutput } from "../core/tool.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";
import { askOutsideWritableRoots } from "../adapters/os/writable_roots.ts";
import { ChangedMeanwhileError, replaceFile } from "../adapters/os/file_replace.ts";
import { fileFailure, TargetExistsError } from "../adapters/os/file_changes.ts";
import { type FileJournalDependencies, journalFolder, recordChange } from "../away/mod.ts";
import type { LibraryPlace } from "./library_place.ts";

/** What a tagging change needs. */
export type TaggingDependencies =
  & FileAccessDependencies
  & Omit<FileJournalDependencies, "dataDir">
  & {
    guard: PathGuard;
  };

/** One tagging change. */
export interface Tagging {
  /** The file (a real path the guard allowed for writing) and how it is shown. */
  path: string;
  shown: string;
  /** What is written, in words ("ComicInfo.xml", "PDF Info"). */
  what: string;
  /** Writes the new version; false when the subprocess did not (its result says why). */
  produce: (
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
    size: number,
  ) => Promise<boolean>;
  /** When the call files it: its library place, known once the new version is written. */
  place?: () => Promise<LibraryPlace | undefined>;
}

/** What happened: nothing (the subprocess declined), or where the file is now. */
export type TaggingOutcome =
  | { done: false }
  | { done: true; path: string; moved: boolean; undo: string; place?: LibraryPlace };

/**
 * Writes a tagging change. Answers the outcome, or a tool result when nothing changed because of
 * a refusal or an error.
 */
export async function writeTagging(
  deps: TaggingDependencies,
  tagging: Tagging,
  context: ToolContext,
): Promise<TaggingOutcome | ToolOutput> {
  const { path, shown, what } = tagging;
  if (!tagging.place) {
    const outside = await askOutsideWritableRoots(
      deps,
      deps.guard,
      [path],
      `write ${what} into ${shown}`,
      context,
    );
    if (outside) return refused(outside);
  }
  let place: LibraryPlace | undefined;
  let source: Deno.FsFile | undefined;
  try {
    source = await openCheckedForRead(path, { guard: deps.guard });
    const size = (await source.stat()).size;
    const replaced = await replaceFile(
      path,
      source,
      (input, output) => tagging.produce(input, output, size),
      {
        backupFolder: deps.journal ? journalFolder(deps.dataDir) : undefined,
        place: tagging.place &&
          (async () => {
            place = await tagging.place!();
            const to = place?.ok && !place.here ? place.path : undefined;
            const outside = await askOutsideWritableRoots(
              deps,
              deps.guard,
              to ? [path, to] : [path],
              to
                ? `write ${what} into ${shown} and file it as ${deps.guard.display(to)}`
                : `write ${what} into ${shown}`,
              context,
            );
            return outside ? { refused: outside } : { path: to ?? path };
          }),
      },
    );
    if (!replaced) return { done: false };
    if ("refused" in replaced) return refused(replaced.refused);
    const moved = replaced.path !== path;
    const id = await recordChange(deps, context, {
      tool: "comic_info",
      kind: moved ? "move" : "replace",
      path: replaced.path,
      ...(moved ? { from: path } : {}),
      before: replaced.before,
      backup: replaced.backup,
      createdFolders: replaced.createdFolders,
    });
    const undo = id === undefined ? "" : `Undo: radar undo ${id}.`;
    return { done: true, path: replaced.path, moved, undo, place };
  } catch (error) {
    if (error instanceof ChangedMeanwhileError) {
      return failed(`${shown} ${error.message}; nothing was replaced.`);
    }
    if (error instanceof TargetExistsError) {
      return failed(
        `${
          deps.guard.display(error.message)
        } appeared meanwhile; nothing was changed. Call again for a free name.`,
      );
    }
    return fileFailure("write", shown, error);
  } finally {
    try {
      source?.close();
    } catch { /* closed by its stream */ }
  }
}

/** True when `value` is a tagging outcome (not a tool result). */
export function isTaggingOutcome(value: TaggingOutcome | ToolOutput): value is TaggingOutcome {
  return typeof value === "object" && "done" in value;
}
