/**
 * What a file write would change, shown with its approval: a unified diff of the file as it is
 * when the approval is asked against what `write_file` would leave (its content, or the file with
 * the content appended). The file is read through the path guard and checked open (a protected
 * file, a link swapped in, a hard link to a secret are never read: the change is then shown
 * against nothing, and said so), and only while it is small text.
 */
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import { pathGuardFor } from "../adapters/os/file_access.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import { firstLine } from "../core/first_line.ts";

/** The largest file whose content a preview reads (bigger ones are shown as appended to). */
const maxPreviewBytes = 256 * 1024;

/** The diff a `write_file` call would make, or undefined for any other call. */
export async function writePreview(
  files: FileAccessDependencies,
  tool: string,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const { path, content, append } = args;
  if (tool !== "write_file" || typeof path !== "string" || typeof content !== "string") {
    return undefined;
  }
  const guard = pathGuardFor(files);
  const checked = guard.check(path, "read");
  const shown = checked.ok ? guard.display(checked.path) : path;
  const before = checked.ok
    ? await currentText(checked.path, guard)
    : { problem: `not read: ${checked.reason}` };
  const { createTwoFilesPatch } = await import("diff");
  if ("problem" in before) {
    const added = withoutHeader(createTwoFilesPatch(shown, shown, "", content))
      .split("\n").filter((line) => !/^(---|\+\+\+) /.test(line)).join("\n");
    const what = append ? "appends to the end of the file" : "replaces the whole file";
    return `${shown}: the current content is not shown (${before.problem}); the write ${what}:\n${added}`;
  }
  const after = append && before.text !== undefined ? before.text + content : content;
  return withoutHeader(createTwoFilesPatch(
    shown,
    shown,
    before.text ?? "",
    after,
    before.text === undefined ? "(new file)" : "now",
    "after the write",
  ));
}

/** A patch without the `Index:` and `====` lines the diff package puts first. */
function withoutHeader(patch: string): string {
  return patch.replace(/^Index: [^\n]*\n=+\n/, "");
}

/** The file's text now (undefined: there is none yet), or why it is not shown. */
async function currentText(
  path: string,
  guard: ReturnType<typeof pathGuardFor>,
): Promise<{ text?: string } | { problem: string }> {
  let file: Deno.FsFile;
  try {
    file = await openCheckedForRead(path, { guard });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    return { problem: firstLine(error, 200) };
  }
  try {
    const size = (await file.stat()).size;
    if (size > maxPreviewBytes) return { problem: `${size} bytes, larger than a preview shows` };
    const bytes = new Uint8Array(size);
    let read = 0;
    while (read < size) {
      const count = await file.read(bytes.subarray(read));
      if (count === null) break;
      read += count;
    }
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, read)) };
  } catch (error) {
    return { problem: error instanceof TypeError ? "not text" : firstLine(error, 200) };
  } finally {
    file.close();
  }
}
