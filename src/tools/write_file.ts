/** `write_file`: create, overwrite or append, atomically (temp file + rename). */
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { defineTool, failed, refused, type Tool } from "../core/tool.ts";
import { assertFolderUnchanged, openCheckedForRead, PathChangedError } from "./checked_open.ts";
import { type FileToolDependencies, pathGuardFor } from "./file_access.ts";
import { describeFsError } from "./read_file.ts";

/** Creates the write_file tool. */
export function writeFileTool(deps: FileToolDependencies): Tool {
  return defineTool({
    name: "write_file",
    description: "Write text to a file (creates folders)",
    keywords: ["write", "save", "create", "file", "append", "text"],
    input: z.object({
      path: z.string().min(1),
      content: z.string().max(1_000_000),
      append: z.boolean().optional(),
    }),
    run: async ({ path, content, append }) => {
      const guard = pathGuardFor(deps);
      const checked = guard.check(path, "write");
      if (!checked.ok) return refused(checked.reason);
      const target = checked.path;
      const shown = guard.display(target);
      try {
        const existing = await existingFile(target);
        if (existing === "folder") return failed(`${shown} is a folder; give a file path.`);
        const folder = dirname(target);
        await Deno.mkdir(folder, { recursive: true });
        await assertFolderUnchanged(folder);
        let data: Uint8Array = new TextEncoder().encode(content);
        if (append && existing) {
          const file = await openCheckedForRead(target, { guard });
          let before: Uint8Array;
          try {
            before = await readAll(file);
          } finally {
            file.close();
          }
          data = concat(before, data);
        }
        await writeAtomically(target, data, existing ? existing.mode : undefined);
        const verb = !existing ? "Created" : append ? "Appended to" : "Replaced";
        return `${verb} ${shown} (${data.length} bytes).`;
      } catch (error) {
        if (error instanceof PathChangedError) {
          return refused(`Cannot write ${shown}: ${error.message}.`);
        }
        return failed(`Cannot write ${shown}: ${describeFsError(error)}`);
      }
    },
  });
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

/** Writes `data` to a temp file beside `target`, syncs it, then renames it over `target`. */
export async function writeAtomically(
  target: string,
  data: Uint8Array,
  mode?: number,
): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${crypto.randomUUID()}.tmp`);
  const file = await Deno.open(temp, { write: true, createNew: true, mode: mode ?? 0o644 });
  try {
    let written = 0;
    while (written < data.length) written += await file.write(data.subarray(written));
    await file.sync();
  } catch (error) {
    file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  file.close();
  try {
    if (mode !== undefined) await Deno.chmod(temp, mode);
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

async function readAll(file: Deno.FsFile): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  while (true) {
    const buffer = new Uint8Array(64 * 1024);
    const count = await file.read(buffer);
    if (count === null) break;
    chunks.push(buffer.subarray(0, count));
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
