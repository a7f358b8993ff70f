/** File-name globs (`*`, `?`, `[abc]`, `{pdf,epub}`) through npm picomatch: one implementation. */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/**
 * A case-insensitive matcher for a whole file name (dot files included).
 *
 * @example
 * globMatcher("*.pdf")("Report.PDF") // true
 */
export function globMatcher(glob: string): (name: string) => boolean {
  return picomatch(shellNegation(glob), { nocase: true, dot: true });
}

/** `[!abc]` is the shell's negated class; picomatch reads it as `[^abc]` only. */
function shellNegation(glob: string): string {
  return glob.replaceAll("[!", "[^");
}
