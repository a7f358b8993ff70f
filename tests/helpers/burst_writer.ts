/**
 * Writes a burst of small files as another program would (a scanner, a copy, an unzip), in its
 * own process so the watcher under test reads events while they happen.
 * `deno run --allow-read --allow-write burst_writer.ts SPEC_JSON`; SPEC: { folder, count,
 * prefix?, perFolder?: files per new subfolder (recursive bursts), movedIn?: a folder outside
 * whose subfolders are written first, then moved into `folder` whole }.
 */
import { join } from "node:path";

/** What to write. */
export interface BurstSpec {
  folder: string;
  count: number;
  prefix?: string;
  /** Files per subfolder; each subfolder is created during the burst (0: all in `folder`). */
  perFolder?: number;
  /** Write the subfolders here, then move each into `folder` (no file event inside them). */
  movedIn?: string;
}

/** Where the burst's files end up. */
export function burstPaths(spec: BurstSpec): string[] {
  return Array.from({ length: spec.count }, (_, index) => {
    const name = `${spec.prefix ?? "scan"}-${index}.pdf`;
    if (!spec.perFolder) return join(spec.folder, name);
    return join(
      spec.folder,
      `${spec.prefix ?? "scan"}-batch-${Math.floor(index / spec.perFolder)}`,
      name,
    );
  });
}

/** Writes the burst (subfolders created as it goes; moved in whole at the end with `movedIn`). */
export function writeBurst(spec: BurstSpec): void {
  const bytes = new TextEncoder().encode("%PDF-1.4 burst");
  const base = spec.movedIn ?? spec.folder;
  const subfolders = new Set<string>();
  for (let index = 0; index < spec.count; index++) {
    let folder = base;
    if (spec.perFolder) {
      const name = `${spec.prefix ?? "scan"}-batch-${Math.floor(index / spec.perFolder)}`;
      folder = join(base, name);
      if (!subfolders.has(name)) {
        Deno.mkdirSync(folder, { recursive: true });
        subfolders.add(name);
      }
    }
    Deno.writeFileSync(join(folder, `${spec.prefix ?? "scan"}-${index}.pdf`), bytes);
  }
  if (spec.movedIn) {
    for (const name of subfolders) {
      Deno.renameSync(join(spec.movedIn, name), join(spec.folder, name));
    }
  }
}

/** Runs the writer as its own process and waits for it. */
export async function writeBurstInSubprocess(spec: BurstSpec): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", import.meta.filename!, JSON.stringify(spec)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
}

if (import.meta.main) writeBurst(JSON.parse(Deno.args[0]));
