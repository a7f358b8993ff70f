/** `radar log tools`: the tool audit trail. */
import type { Command } from "commander";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseLimit } from "../arguments.ts";
import { formatDateTime } from "../../core/zoned_time.ts";

/** Registers `log` and `log tools`. */
export function registerLog(program: Command, context: CliContext): void {
  const log = program.command("log").description("show audit trails (log tools)");
  log.command("tools")
    .description("recent tool calls: time, conversation, tool, outcome, duration, arguments")
    .option("-n, --limit <n>", "how many", "20")
    .option("--tool <name>", "only calls of this tool")
    .option("--failed", "only calls that did not succeed")
    .option("--json", jsonOptionHelp)
    .action(async (options: { limit: string; tool?: string; failed?: boolean; json?: boolean }) => {
      const radar = await context.radar();
      const rows = radar.toolCalls.list({
        limit: parseLimit(options.limit),
        tool: options.tool,
        failed: options.failed,
      });
      if (options.json) return printJson(context, rows);
      if (!rows.length) return context.io.stdout("No tool calls recorded.\n");
      const timeZone = radar.config.radar.timezone || undefined;
      for (const row of rows.reverse()) {
        const result = row.result.replace(/\s+/g, " ").slice(0, 100);
        context.io.stdout(
          `${formatDateTime(new Date(row.at), timeZone, { seconds: true })}  ${
            row.conversationId === undefined ? "    -" : `#${row.conversationId}`.padStart(5)
          }  ${row.tool.padEnd(14)} ${row.outcome.padEnd(7)} ${
            String(row.durationMs).padStart(6)
          } ms  ${row.arguments.slice(0, 160)}\n      → ${result}\n`,
        );
      }
    });
}
