/** `write_file`: create, overwrite or append, atomically (temp file + rename). */
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { failed, refused, type Tool, type ToolContext } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import {
  assertFolderUnchanged,
  openCheckedForRead,
  PathChangedError,
} from "../adapters/os/checked_open.ts";
import {
  checkedRoots,
  ensureScratchFolder,
  type FileAccessDependencies,
  pathGuardFor,
} from "../adapters/os/file_access.ts";
import { isInside, type PathCheck, type PathGuard } from "../adapters/os/path_guard.ts";
import { askOutsideWritableRoots } from "../adapters/os/writable_roots.ts";
import {
  createFolders,
  fileFailure,
  fileState,
  writeAtomically,
} from "../adapters/os/file_changes.ts";
import { type FileJournalDependencies, recordChange, saveBeforeReplace } from "../away/mod.ts";

/** write_file's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const writeFileInput = lazyValue(() =>
  z.object({
    path: z.string().min(1),
    content: z.string().max(1_000_000),
    append: z.boolean().optional(),
  })
);

/** Creates the write_file tool. */
export function writeFileTool(
  deps: FileAccessDependencies & Omit<FileJournalDependencies, "dataDir">,
): Tool {
  return defineTool({
    name: "write_file",
    effect: "local_write",
    pathArguments: ["path"],
    resultIsData: false,
    description: "Write a text file",
    keywords: ["write", "save", "create", "file", "append", "text"],
    parameters: toolParameters.write_file,
    input: writeFileInput,
    run: async ({ path, content, append }, context) => {
      const guard = pathGuardFor(deps);
      const roots = [
        ensureScratchFolder(deps),
        ...checkedRoots(guard, deps.config.tools.files.writable_roots),
      ];
      const place = writePlace(path, deps, guard, roots, context);
      if (!place.ok) return refused(place.reason);
      const target = place.path;
      const shown = guard.display(target);
      const outside = await askOutsideWritableRoots(
        deps,
        guard,
        [target],
        `write ${shown}`,
        context,
      );
      if (outside) return refused(outside);
      try {
        const existing = await existingFile(target);
        if (existing === "folder") return failed(`${shown} is a folder; give a file path.`);
        const folder = dirname(target);
        const createdFolders = await createFolders(folder);
        await assertFolderUnchanged(folder);
        const data = new TextEncoder().encode(content);
        // The journal keeps the state before (and a copy of replaced content) for undo.
        const saved = !existing
          ? undefined
          : append
          ? { before: await fileState(target) }
          : await saveBeforeReplace(deps, target);
        // Appending copies the old file into the temp file as a stream: no size limit in memory.
        const before = append && existing ? await openCheckedForRead(target, { guard }) : undefined;
        let size: number;
        try {
          size = await writeAtomically(target, data, existing ? existing.mode : undefined, before);
        } finally {
          try {
            before?.close();
          } catch { /* closed by the copy */ }
        }
        const verb = !existing ? "Created" : append ? "Appended to" : "Replaced";
        const journaled = await recordChange(deps, context, {
          tool: "write_file",
          kind: !existing ? "create" : append ? "append" : "replace",
          path: target,
          before: saved?.before,
          backup: saved?.backup,
          createdFolders,
        });
        const undo = journaled === undefined ? "" : ` Undo: radar undo ${journaled}.`;
        return `${verb} ${shown} (${size} bytes).${place.note ?? ""}${undo}`;
      } catch (error) {
        return fileFailure("write", shown, error);
      }
    },
  });
}

/**
 * Where a write goes. An absolute or `~` path as given. A relative path (a bare file name) is
 * taken from the folder Radar was run from when it may be written there: inside the writable
 * roots, or with a person present to say yes (`radar ask` and `radar chat` at a terminal, the
 * dashboard's chat). Otherwise (a heartbeat, a task, a script, a protected folder) it goes to the
 * scratch folder (`roots[0]`) and the result says so.
 */
function writePlace(
  path: string,
  deps: FileAccessDependencies,
  guard: PathGuard,
  roots: readonly string[],
  context: ToolContext,
): PathCheck & { note?: string } {
  const here = guard.check(path, "write");
  if (isAbsolute(path) || path === "~" || path.startsWith("~/")) return here;
  const personPresent = context.interactive && context.confirm !== undefined;
  if (here.ok && (personPresent || roots.some((root) => isInside(here.path, root, true)))) {
    return here;
  }
  const there = guard.check(join(roots[0], path), "write");
  if (!there.ok) return there;
  const folder = guard.display(deps.cwd ?? Deno.cwd());
  const why = here.ok ? `nobody is there to allow writing in ${folder}` : `${folder} is protected`;
  return { ...there, note: ` It is in the scratch folder: ${why}.` };
}

async function existingFile(path: string): Promise<{ mode?: number } | "folder" | undefined> {
  try {
    const info = await Deno.lstat(path);
    if (info.isDirectory) return "folder";
    if (info.isSymlink) throw new PathChangedError("it became a symbolic link after the check");
    return { mode: info.mode === null ? undefined : info.mode & 0o777 };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
