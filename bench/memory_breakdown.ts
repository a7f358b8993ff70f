/**
 * Where a process's resident memory is, in MB: from /proc/PID/smaps by mapping (the deno binary's
 * pages, malloc's heap — Deno's Rust side: module graph and sources, SQLite's page cache —, other
 * anonymous memory — V8's heap, thread stacks —, other files) and from a heap snapshot by module
 * group and kind. Linux only.
 */
import { attributeHeap, groupShares, type HeapKind, type HeapShare } from "./heap_snapshot.ts";
import type { InspectedProcess } from "./inspector.ts";

/** Resident MB of one process by kind of mapping. */
export interface MappingParts {
  total: number;
  /** The deno executable's pages (code and read-only data; shared, reclaimable). */
  denoBinary: number;
  /** glibc malloc's [heap]: Deno's Rust side (module graph, sources, SQLite cache, buffers). */
  mallocHeap: number;
  /** Other anonymous memory: V8's heap spaces, malloc arenas of other threads, stacks. */
  otherAnonymous: number;
  /** Every other file-backed or shared mapping. */
  otherFiles: number;
}

/** Reads /proc/PID/smaps (through `cat`: Deno wants --allow-all for /proc) and sums Rss. */
export async function mappingParts(pid: number): Promise<MappingParts> {
  const output = await new Deno.Command("cat", { args: [`/proc/${pid}/smaps`] }).output();
  const text = new TextDecoder().decode(output.stdout);
  const parts: MappingParts = {
    total: 0,
    denoBinary: 0,
    mallocHeap: 0,
    otherAnonymous: 0,
    otherFiles: 0,
  };
  const executable = Deno.execPath();
  let bucket: keyof MappingParts = "otherAnonymous";
  for (const line of text.split("\n")) {
    const header = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (header) {
      const name = header[1].trim();
      bucket = name === "" || name.startsWith("[anon") || name === "[stack]"
        ? "otherAnonymous"
        : name === "[heap]"
        ? "mallocHeap"
        : name === executable
        ? "denoBinary"
        : "otherFiles";
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss) {
      const mb = Number(rss[1]) / 1024;
      parts[bucket] += mb;
      parts.total += mb;
    }
  }
  return parts;
}

/** A module URL's group: Radar's folder (src/core, web, …), the npm package, or Deno's own. */
export function moduleGroup(url: string): string {
  const own = url.match(/^file:\/\/.*?\/((?:src|web)\/[^/]+|bench|main\.ts)(?:\/|$)/);
  if (own) return own[1].replace(/\.tsx?$/, "");
  const npm = url.match(/registry\.npmjs\.org\/(@[^/]+\/[^/]+|[^/]+)\//);
  if (npm) return `npm:${npm[1]}`;
  if (/^(ext|node):/.test(url)) return "Deno's own JS";
  if (url.startsWith("file://")) return "other files (the floor script)";
  return url === "(runtime)" ? "no one module (runtime objects)" : "Deno's own JS";
}

const kindOrder: HeapKind[] = [
  "module source text",
  "compiled code",
  "schemas (zod)",
  "objects, arrays, closures",
  "strings",
  "buffers",
];

/** The heap of an inspected process grouped by module group, and in total by kind. */
export function heapBreakdown(
  inspected: InspectedProcess,
): { groups: HeapShare[]; byKind: HeapShare } {
  const shares = attributeHeap(inspected.snapshot);
  return {
    groups: groupShares(shares, moduleGroup),
    byKind: groupShares(shares, () => "all")[0],
  };
}

/** "12.3 MB: module source text 8.1, compiled code 2.0, …" (kinds over 0.05 MB). */
export function describeShare(share: HeapShare): string {
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  return kindOrder.filter((kind) => (share.byKind[kind] ?? 0) >= 52_429)
    .map((kind) => `${kind} ${mb(share.byKind[kind]!)}`).join(", ");
}

/** Scripts loaded per module group: how many, and their characters. */
export function scriptGroups(
  inspected: InspectedProcess,
): Array<{ group: string; count: number; characters: number }> {
  const groups = new Map<string, { group: string; count: number; characters: number }>();
  for (const script of inspected.scripts) {
    const group = moduleGroup(script.url);
    const entry = groups.get(group) ?? { group, count: 0, characters: 0 };
    entry.count++;
    entry.characters += script.length;
    groups.set(group, entry);
  }
  return [...groups.values()].sort((a, b) => b.characters - a.characters);
}
