/**
 * A short unified diff of two versions of a page's text (npm `diff`, imported on the first
 * changed page, not when Radar starts), bounded for a prompt.
 */

/** A bounded diff and its line counts. */
export interface ShortDiff {
  /** Unified hunks ("@@ -3,2 +3,2 @@", "-old", "+new"), cut to the line limit. */
  text: string;
  added: number;
  removed: number;
}

/** Beyond this many edits the diff is not computed (a rewritten page; keeps ticks fast). */
const maxEditLength = 1000;

/** Diffs `before` and `after` line by line with one line of context; at most `maxLines`. */
export async function shortDiff(
  before: string,
  after: string,
  maxLines = 40,
): Promise<ShortDiff> {
  const { structuredPatch } = await import("diff");
  const patch = structuredPatch(
    "before",
    "after",
    withNewline(before),
    withNewline(after),
    "",
    "",
    {
      context: 1,
      maxEditLength,
    },
  );
  if (!patch) {
    const added = after.split("\n").length;
    const removed = before.split("\n").length;
    return { text: `(rewritten: ${removed} lines replaced by ${added})`, added, removed };
  }
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("\\")) continue;
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      lines.push(line.length > 300 ? `${line.slice(0, 299)}…` : line);
    }
  }
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more diff lines`);
  return { text: shown.join("\n"), added, removed };
}

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
