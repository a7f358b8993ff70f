/** `list_directory`: entries with type, size and modified time; glob filter; bounded depth. */
import { join } from "node:path";
import { z } from "zod";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import { globMatcher } from "./glob.ts";
import { describeFsError } from "../adapters/os/file_changes.ts";
import { formatDateTime } from "../core/zoned_time.ts";

const maxEntries = 200;
/** Names read in all (cheap: no stat); only the entries shown are stat'ed. */
const maxVisited = 100_000;

interface Entry {
  path: string;
  full: string;
  kind: "d" | "f" | "l" | "?";
  size: number;
  modified: Date | null;
}

/** list_directory's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const listDirectoryInput = lazyValue(() =>
  z.object({
    path: z.string().min(1),
    pattern: z.string().max(200).optional().describe("e.g. *.pdf"),
    depth: z.number().int().min(1).max(5).optional(),
  })
);

/** Creates the list_directory tool. */
export function listDirectoryTool(deps: FileAccessDependencies): Tool {
  const timeZone = deps.config.radar.timezone || undefined;
  return defineTool({
    name: "list_directory",
    effect: "none",
    pathArguments: ["path"],
    readOnly: true,
    description: "List a folder's files",
    keywords: ["list", "folder", "directory", "files", "find", "downloads", "ls"],
    parameters: toolParameters.list_directory,
    input: listDirectoryInput,
    run: async ({ path, pattern, depth }) => {
      const guard = pathGuardFor(deps);
      const checked = guard.check(path, "read");
      if (!checked.ok) return refused(checked.reason);
      const shown = guard.display(checked.path);
      try {
        const info = await Deno.stat(checked.path);
        if (!info.isDirectory) return failed(`${shown} is not a folder; use read_file.`);
      } catch (error) {
        return failed(`Cannot list ${shown}: ${describeFsError(error)}`);
      }
      const matcher = pattern ? globMatcher(pattern) : undefined;
      const found: Entry[] = [];
      const skipped: string[] = [];
      let visited = 0;
      const walk = async (folder: string, prefix: string, level: number): Promise<void> => {
        const names: Deno.DirEntry[] = [];
        for await (const entry of Deno.readDir(folder)) {
          if (++visited > maxVisited) break;
          names.push(entry);
        }
        for (const entry of byName(names)) {
          const full = join(folder, entry.name);
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          const kind = entry.isSymlink ? "l" : entry.isDirectory ? "d" : entry.isFile ? "f" : "?";
          if (!matcher || matcher(entry.name)) {
            found.push({ path: relative, full, kind, size: 0, modified: null });
          }
          if (kind === "d" && level < (depth ?? 1) && visited <= maxVisited) {
            if (!guard.check(full, "read").ok) {
              skipped.push(relative);
              continue;
            }
            try {
              await walk(full, relative, level + 1);
            } catch {
              skipped.push(relative);
            }
          }
        }
      };
      try {
        await walk(checked.path, "", 1);
      } catch (error) {
        return failed(`Cannot list ${shown}: ${describeFsError(error)}`);
      }
      for (const entry of found.slice(0, maxEntries)) {
        try {
          const info = await Deno.lstat(entry.full);
          entry.size = info.size;
          entry.modified = info.mtime;
        } catch { /* vanished or unreadable */ }
      }
      const lines = found.slice(0, maxEntries).map((entry) => formatEntry(entry, timeZone));
      const what = matcher ? `matching ${pattern}` : "entries";
      const header = `${shown}: ${found.length} ${what}`;
      const notes: string[] = [];
      if (found.length > maxEntries) notes.push(`[${found.length - maxEntries} more not shown]`);
      if (visited > maxVisited) {
        notes.push(`[stopped after reading ${maxVisited} names; the counts are incomplete]`);
      }
      if (skipped.length) {
        notes.push(`[not entered (protected or unreadable): ${skipped.join(", ")}]`);
      }
      return [header, ...lines, ...notes].join("\n");
    },
  });
}

/** Sorted case-insensitively (a.pdf before B.PDF); plain comparisons keep 100k names fast. */
function byName(entries: Deno.DirEntry[]): Deno.DirEntry[] {
  const keyed = entries.map((entry) => ({ entry, key: entry.name.toLowerCase() }));
  keyed.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.entry.name < b.entry.name ? -1 : 1
  );
  return keyed.map(({ entry }) => entry);
}

function formatEntry(entry: Entry, timeZone: string | undefined): string {
  const size = entry.kind === "d" ? "-" : humanSize(entry.size);
  const name = entry.kind === "d" ? `${entry.path}/` : entry.path;
  return `${entry.kind} ${size.padStart(6)} ${formatTime(entry.modified, timeZone)} ${name}`;
}

/** Formats a byte count as 512, 12.3K, 4.5M, 1.2G. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  const units = ["K", "M", "G", "T"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`;
}

function formatTime(date: Date | null, timeZone: string | undefined): string {
  return date ? formatDateTime(date, timeZone) : "----------------";
}
