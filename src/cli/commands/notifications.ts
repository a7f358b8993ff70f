/**
 * `radar notifications`: every notification Radar sent or tried to send, with its delivery:
 * delivered (HTTP status), failed and being retried, or undeliverable after the last try.
 */
import type { Command } from "commander";
import type { OutboxEntry } from "../../core/work_ports.ts";
import { parseCount } from "../arguments.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { formatDateTime } from "../../core/zoned_time.ts";

/** A notification's delivery in words. */
export function deliveryWords(entry: OutboxEntry): string {
  const status = entry.status === undefined ? "" : ` HTTP ${entry.status}`;
  const tries = entry.attempts > 1 ? `, ${entry.attempts} tries` : "";
  switch (entry.state) {
    case "sent":
      return `delivered${status}${tries}`;
    case "failed":
      return `failed${status}${tries}, retrying: ${entry.error ?? ""}`;
    case "undeliverable":
      return `UNDELIVERABLE after ${entry.attempts} tries: ${entry.error ?? ""}`;
    default:
      return "sending (or cut short by a crash)";
  }
}

/** Registers `notifications`. */
export function registerNotifications(program: Command, context: CliContext): void {
  program.command("notifications")
    .description("notifications sent or tried, newest first, with their delivery")
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", jsonOptionHelp)
    .action(async (options: { limit: string; json?: boolean }) => {
      const radar = await context.radar();
      const entries = radar.outbox.recent(parseCount(options.limit, "--limit"), "notify");
      const zone = radar.config.radar.timezone || undefined;
      await printListing(context, options.json, entries, "No notifications yet.", (entry) => {
        const text = (entry.title ? `${entry.title}: ` : "") + (entry.body ?? entry.summary);
        return `${formatDateTime(new Date(entry.createdAt), zone)}  ${deliveryWords(entry)}\n` +
          `      ${text.replace(/\s+/g, " ").slice(0, 160)}`;
      });
    });
}
