/** `--json` output: one pretty-printed JSON document on stdout. */
import type { CliContext } from "./context.ts";

/** The `--json` option's help text, shared by every listing and status command. */
export const jsonOptionHelp = "print JSON";

/** Prints `value` as JSON. */
export function printJson(context: CliContext, value: unknown): void {
  context.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
