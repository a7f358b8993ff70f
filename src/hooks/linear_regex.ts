/**
 * The user's regular expressions (`redact_response` patterns) on RE2, a linear-time engine (npm
 * `@adguard/re2-wasm`): no pattern, however it nests, backtracks over attacker-quoted text, so
 * a redaction costs time in proportion to the answer and never stalls a run or the daemon. The
 * WASM module (~25 MB resident) is loaded on the first use only, so a Radar without such a rule
 * never pays for it. RE2 has no backreferences or lookaround; the config check
 * (`src/config/schema.ts`) says so at load.
 */

/** What RE2 offers here: a RegExp-compatible object that String.prototype.replace accepts. */
type LinearExpression = RegExp;

let engine: Promise<new (pattern: string, flags: string) => LinearExpression> | undefined;

function loadEngine() {
  engine ??= import("@adguard/re2-wasm").then((module) =>
    module.RE2 as unknown as new (pattern: string, flags: string) => LinearExpression
  );
  return engine;
}

/**
 * A function that replaces every case-insensitive match of each pattern, in order, with
 * `replacement`. Rejects (one readable line) when RE2 cannot compile a pattern.
 */
export async function linearReplacer(
  patterns: readonly string[],
  replacement: string,
): Promise<(text: string) => string> {
  const RE2 = await loadEngine();
  const expressions = patterns.map((pattern) => {
    try {
      return new RE2(pattern, "giu");
    } catch (error) {
      throw new Error(`pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`);
    }
  });
  return (text) =>
    expressions.reduce((result, expression) => result.replace(expression, replacement), text);
}
