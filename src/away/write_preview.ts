/**
 * What a file write would change, shown with its approval: a unified diff of the file as it is
 * when the approval is asked against what `write_file` would leave (its content, or the file with
 * the content appended), and the state of the file it was taken against (`absent`, or the SHA-256
 * of its bytes), so that approving refuses when the file changed since. The file is read through
 * the path guard and checked open (a protected file, a link swapped in, a hard link to a secret
 * are never read: the change is then shown against nothing, and said so); its text is shown only
 * while it is small text, its hash is taken whatever its size.
 */
import { createHash } from "node:crypto";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import { concatBytes } from "../core/bytes.ts";
import { firstLine } from "../core/errors.ts";
import type { CallPreview } from "./approval_ports.ts";

/** The largest file whose content a preview shows (bigger ones are shown as appended to). */
const maxPreviewBytes = 256 * 1024;

/** The diff a `write_file` call would make and what it was taken against; undefined otherwise. */
export async function writePreview(
  files: FileAccessDependencies,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallPreview | undefined> {
  const { path, content, append } = args;
  if (tool !== "write_file" || typeof path !== "string" || typeof content !== "string") {
    return undefined;
  }
  const guard = pathGuardFor(files);
  const checked = guard.check(path, "read");
  const shown = checked.ok ? guard.display(checked.path) : path;
  const before = checked.ok
    ? await readFile(checked.path, guard)
    : { problem: `not read: ${checked.reason}` };
  const { createTwoFilesPatch } = await import("diff");
  if (before.problem !== undefined) {
    const added = withoutHeader(createTwoFilesPatch(shown, shown, "", content))
      .split("\n").filter((line) => !/^(---|\+\+\+) /.test(line)).join("\n");
    const what = append ? "appends to the end of the file" : "replaces the whole file";
    return {
      text:
        `${shown}: the current content is not shown (${before.problem}); the write ${what}:\n${added}`,
      base: before.base,
    };
  }
  const after = append && before.text !== undefined ? before.text + content : content;
  return {
    text: withoutHeader(createTwoFilesPatch(
      shown,
      shown,
      before.text ?? "",
      after,
      before.text === undefined ? "(new file)" : "now",
      "after the write",
    )),
    base: before.base,
  };
}

/**
 * The state now of the file a `write_file` call writes, as `writePreview` records it (`absent`,
 * `sha256:HEX`), or undefined when it cannot be read (or for any other call).
 */
export async function writePreviewBase(
  files: FileAccessDependencies,
  tool: string,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  if (tool !== "write_file" || typeof args.path !== "string") return undefined;
  const guard = pathGuardFor(files);
  const checked = guard.check(args.path, "read");
  return checked.ok ? (await readFile(checked.path, guard, 0)).base : undefined;
}

/** A patch without the `Index:` and `====` lines the diff package puts first. */
function withoutHeader(patch: string): string {
  return patch.replace(/^Index: [^\n]*\n=+\n/, "");
}

/**
 * The file now: its state (`absent`, `sha256:HEX`; undefined: not read) and its text when it is
 * small text (at most `showBytes`), else why its text is not shown.
 */
async function readFile(
  path: string,
  guard: ReturnType<typeof pathGuardFor>,
  showBytes = maxPreviewBytes,
): Promise<{ base?: string; text?: string; problem?: string }> {
  let file: Deno.FsFile;
  try {
    file = await openCheckedForRead(path, { guard });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { base: "absent" };
    return { problem: firstLine(error, 200) };
  }
  try {
    const hash = createHash("sha256");
    const shown: Uint8Array[] = [];
    let size = 0;
    const chunk = new Uint8Array(64 * 1024);
    for (let count = await file.read(chunk); count !== null; count = await file.read(chunk)) {
      const bytes = chunk.subarray(0, count);
      hash.update(bytes);
      if (size + count <= showBytes) shown.push(bytes.slice());
      size += count;
    }
    const base = `sha256:${hash.digest("hex")}`;
    if (size > showBytes) {
      return { base, problem: `${size} bytes, larger than a preview shows` };
    }
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(concatBytes(shown));
      return { base, text };
    } catch {
      return { base, problem: "not text" };
    }
  } catch (error) {
    return { problem: firstLine(error, 200) };
  } finally {
    file.close();
  }
}
