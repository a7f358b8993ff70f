/** `--json` output: one pretty-printed JSON document on stdout. */
import type { CliContext } from "./context.ts";

/** The `--json` option's help text, shared by every listing and status command. */
export const jsonOptionHelp = "print JSON";

/** Prints `value` as JSON. */
export function printJson(context: CliContext, value: unknown): void {
  context.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Prints a listing: `items` as JSON with `--json`, else `empty` when there are none, else each
 * item's text on its own line.
 */
export async function printListing<T>(
  context: CliContext,
  json: boolean | undefined,
  items: readonly T[],
  empty: string,
  text: (item: T) => string | Promise<string>,
): Promise<void> {
  if (json) return printJson(context, items);
  if (!items.length) return context.io.stdout(`${empty}\n`);
  for (const item of items) context.io.stdout(`${await text(item)}\n`);
}
