/**
 * `move_file`: move, rename or copy one file. Never overwrites (a taken name is an error the model
 * can act on), creates the destination's missing folders, and records every change in the action
 * journal for undo. Outside the writable folders it needs a yes: the person in chat, a standing
 * grant ("move ~/Downloads/*.pdf into ~/Documents/Filed/**"), or a pending approval.
 */
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import {
  assertFolderUnchanged,
  openCheckedForRead,
  PathChangedError,
} from "../adapters/os/checked_open.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import {
  createFolders,
  describeFsError,
  TargetExistsError,
  transferWithoutOverwrite,
} from "../adapters/os/file_changes.ts";
import { type FileJournalDependencies, recordChange } from "../away/mod.ts";
import { askOutsideWritableRoots } from "../adapters/os/writable_roots.ts";

/** move_file's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const moveFileInput = lazyValue(() =>
  z.object({
    source: z.string().min(1).max(4096),
    // A path, or a folder (existing, or ending in /): costs no schema tokens to say.
    destination: z.string().min(1).max(4096),
    copy: z.boolean().optional(),
  })
);

/** Creates the move_file tool. */
export function moveFileTool(
  deps: FileAccessDependencies & Omit<FileJournalDependencies, "dataDir">,
): Tool {
  return defineTool({
    name: "move_file",
    description: "Move, rename or copy a file",
    keywords: ["move", "rename", "copy", "file", "folder", "organize", "sort", "archive"],
    effect: "local_write",
    pathArguments: ["source", "destination"],
    resultIsData: false,
    parameters: toolParameters.move_file,
    input: moveFileInput,
    run: async ({ source, destination, copy }, context) => {
      const guard = pathGuardFor(deps);
      const from = guard.check(source, copy ? "read" : "write");
      if (!from.ok) return refused(from.reason);
      const shownFrom = guard.display(from.path);
      let info: Deno.FileInfo;
      try {
        info = await Deno.lstat(from.path);
      } catch (error) {
        return failed(`Cannot ${copy ? "copy" : "move"} ${shownFrom}: ${describeFsError(error)}`);
      }
      if (!info.isFile) {
        return failed(`${shownFrom} is not a regular file; move_file moves one file at a time.`);
      }
      const intoFolder = destination.endsWith("/") || await isFolder(destination, guard);
      const to = guard.check(
        intoFolder ? join(destination, basename(from.path)) : destination,
        "write",
      );
      if (!to.ok) return refused(to.reason);
      const shownTo = guard.display(to.path);
      if (to.path === from.path) return failed(`${shownFrom} is already there.`);
      const verb = copy ? "copy" : "move";
      const outside = await askOutsideWritableRoots(
        deps,
        guard,
        copy ? [to.path] : [from.path, to.path],
        `${verb} ${shownFrom} to ${shownTo}`,
        context,
      );
      if (outside) return refused(outside);
      let opened: Deno.FsFile | undefined;
      try {
        if (await exists(to.path)) {
          return failed(
            `${shownTo} already exists; nothing was ${verb === "copy" ? "copied" : "moved"}. ` +
              "Choose another name (never overwrite).",
          );
        }
        const folder = dirname(to.path);
        const createdFolders = await createFolders(folder);
        await assertFolderUnchanged(folder);
        opened = await openCheckedForRead(from.path, { guard });
        await transferWithoutOverwrite(from.path, to.path, {
          copy: copy ?? false,
          source: opened,
          mode: info.mode === null ? undefined : info.mode & 0o777,
        });
        const journaled = await recordChange(deps, context, {
          tool: "move_file",
          kind: copy ? "copy" : "move",
          path: to.path,
          from: from.path,
          createdFolders,
        });
        const undo = journaled === undefined ? "" : ` Undo: radar undo ${journaled}.`;
        return `${copy ? "Copied" : "Moved"} ${shownFrom} to ${shownTo}.${undo}`;
      } catch (error) {
        if (error instanceof TargetExistsError) {
          return failed(
            `${shownTo} appeared meanwhile; nothing was replaced. Choose another name.`,
          );
        }
        if (error instanceof PathChangedError) {
          return refused(`Cannot ${verb} ${shownFrom}: ${error.message}.`);
        }
        return failed(`Cannot ${verb} ${shownFrom} to ${shownTo}: ${describeFsError(error)}`);
      } finally {
        opened?.close();
      }
    },
  });
}

async function isFolder(path: string, guard: ReturnType<typeof pathGuardFor>): Promise<boolean> {
  const checked = guard.check(path, "read");
  if (!checked.ok) return false;
  try {
    return (await Deno.stat(checked.path)).isDirectory;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
