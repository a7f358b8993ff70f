/**
 * The user's regular expressions (`redact_response` patterns) on RE2JS, the JavaScript port of
 * RE2, a linear-time engine (npm `re2js`): no pattern, however it nests, backtracks over
 * attacker-quoted text, and each pattern passes over the answer once, so a redaction costs time
 * in proportion to the answer and never stalls a run or the daemon (`deno task bench redaction`
 * prints it at 5, 50 and 250 KB). It matches JavaScript's own strings (no copy into another
 * encoding per match, which made re2-wasm's `replace` quadratic). The engine loads on the first
 * use only, so a Radar without such a rule never pays for it. RE2 has no backreferences or
 * lookaround; the config check (`src/config/schema.ts`) says so at load.
 */
import type { RE2JS } from "re2js";

let engine: Promise<typeof RE2JS> | undefined;

function loadEngine(): Promise<typeof RE2JS> {
  engine ??= import("re2js").then((module) => module.RE2JS);
  return engine;
}

/**
 * A function that replaces every case-insensitive match of each pattern, in order, with
 * `replacement`, taken literally (a `$` in it is just a dollar). Rejects (one readable line) when
 * RE2 cannot compile a pattern.
 */
export async function linearReplacer(
  patterns: readonly string[],
  replacement: string,
): Promise<(text: string) => string> {
  const engine = await loadEngine();
  const expressions = patterns.map((pattern) => {
    try {
      return engine.compile(engine.translateRegExp(pattern), engine.CASE_INSENSITIVE);
    } catch (error) {
      throw new Error(`pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`);
    }
  });
  return (text) =>
    expressions.reduce(
      (result, expression) => expression.matcher(result).replaceAll(() => replacement),
      text,
    );
}
