/**
 * `radar notifications`: every notification Radar sent or tried to send, with its delivery:
 * delivered (HTTP status), failed and being retried, or undeliverable after the last try.
 */
import type { Command } from "commander";
import type { OutboxEntry } from "../../core/work_ports.ts";
import { parseCount } from "../arguments.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
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
      if (options.json) return printJson(context, entries);
      if (!entries.length) return context.io.stdout("No notifications yet.\n");
      const zone = radar.config.radar.timezone || undefined;
      for (const entry of entries) {
        const text = (entry.title ? `${entry.title}: ` : "") + (entry.body ?? entry.summary);
        context.io.stdout(
          `${formatDateTime(new Date(entry.createdAt), zone)}  ${deliveryWords(entry)}\n` +
            `      ${text.replace(/\s+/g, " ").slice(0, 160)}\n`,
        );
      }
    });
}
