/** The one place Radar calls Deno.cron: a tick every minute (UTC schedule; local time is ours). */

/** Calls `handler` at the start of every minute until `signal` aborts. */
export function everyMinute(
  name: string,
  handler: () => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  return Deno.cron(name, "* * * * *", { signal }, handler);
}
