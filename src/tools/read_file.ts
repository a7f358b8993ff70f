/** `read_file`: a text file's contents, size-capped, with an optional line range. */
import { z } from "zod";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import { fileFailure } from "../adapters/os/file_changes.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import { readCapped } from "../adapters/network/bounded_read.ts";

/** read_file's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const readFileInput = lazyValue(() =>
  z.object({
    path: z.string().min(1),
    from: z.number().int().min(1).optional(),
    to: z.number().int().min(1).optional(),
  })
);

/** Creates the read_file tool. */
export function readFileTool(deps: FileAccessDependencies): Tool {
  const maxBytes = deps.config.tools.files.max_read_bytes;
  return defineTool({
    name: "read_file",
    effect: "none",
    pathArguments: ["path"],
    readOnly: true,
    description: "Read a text file (from/to: line numbers)",
    keywords: ["read", "file", "open", "show", "contents", "text", "cat"],
    parameters: toolParameters.read_file,
    input: readFileInput,
    run: async ({ path, from, to }) => {
      const guard = pathGuardFor(deps);
      const checked = guard.check(path, "read");
      if (!checked.ok) return refused(checked.reason);
      const shown = guard.display(checked.path);
      let file: Deno.FsFile;
      try {
        const info = await Deno.stat(checked.path);
        if (info.isDirectory) return failed(`${shown} is a folder; use list_directory.`);
        if (!info.isFile) return failed(`${shown} is not a regular file.`);
        file = await openCheckedForRead(checked.path, { guard });
      } catch (error) {
        return fileFailure("read", shown, error);
      }
      let bytes: Uint8Array;
      let size: number;
      try {
        size = (await file.stat()).size;
        const capped = await readCapped(new Response(file.readable), maxBytes);
        bytes = capped.bytes.subarray(0, maxBytes);
      } finally {
        try {
          file.close();
        } catch { /* closed by its stream */ }
      }
      const binary = binaryKind(bytes);
      if (binary) {
        return failed(
          `${shown} is a binary file (${binary}, ${size} bytes)${
            binary === "PDF" ? "; use pdf_extract" : ""
          }.`,
        );
      }
      const cut = size > bytes.length;
      let text = new TextDecoder().decode(bytes);
      if (cut) text = text.replace(/\n[^\n]*$/, "\n");
      const lines = text.split("\n");
      if (lines.at(-1) === "") lines.pop();
      const first = from ?? 1;
      const last = Math.min(to ?? lines.length, lines.length);
      if (first > lines.length) {
        return failed(
          `${shown} has ${lines.length}${cut ? "+" : ""} lines; from=${first} is past the end.`,
        );
      }
      const selected = lines.slice(first - 1, last).join("\n");
      const range = from || to ? `, lines ${first}-${last}` : "";
      const header = `${shown} (${size} bytes${cut ? "" : `, ${lines.length} lines`}${range})`;
      const note = cut
        ? `\n[truncated: read the first ${bytes.length} of ${size} bytes (tools.files.max_read_bytes)]`
        : "";
      return `${header}\n${selected}${note}`;
    },
  });
}

/** Names a binary format, or undefined for text (UTF-8 without NUL bytes). */
export function binaryKind(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 8));
  if (head.startsWith("%PDF")) return "PDF";
  if (head.startsWith("\x89PNG")) return "PNG image";
  if (head.startsWith("\xff\xd8\xff")) return "JPEG image";
  if (head.startsWith("PK\x03\x04")) return "ZIP archive";
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return "contains NUL bytes";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample.subarray(0, lastCompleteUtf8(sample)));
  } catch {
    return "not UTF-8 text";
  }
  return undefined;
}

function lastCompleteUtf8(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) end -= back;
    break;
  }
  return end;
}
