/** `radar heartbeat [--dry-run]` and `radar heartbeat log`. */
import type { Command } from "commander";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseLimit } from "../arguments.ts";
import { formatEvents } from "../../core/heartbeat.ts";
import type { RunRecord } from "../../core/schedule_ports.ts";
import { formatStoredTime } from "../../core/zoned_time.ts";

/** One line about a run: when (in `timeZone`, offset named), what, why, cost. */
export function describeRun(run: RunRecord, timeZone?: string): string {
  const when = formatStoredTime(run.startedAt, timeZone, { zone: true });
  const what = run.kind === "task" ? `task #${run.taskId}` : `heartbeat (${run.trigger})`;
  const parts = [`${when}  ${what}: ${run.outcome}`];
  if (run.outcome === "skipped" || run.outcome === "failed") parts.push(`(${run.reason})`);
  if (run.eventCount) parts.push(`${run.eventCount} events`);
  if (run.promptTokens !== undefined || run.completionTokens !== undefined) {
    parts.push(`${run.promptTokens ?? 0}+${run.completionTokens ?? 0} tokens`);
  }
  if (run.durationMs !== undefined && run.outcome !== "skipped") {
    parts.push(`${(run.durationMs / 1000).toFixed(1)} s`);
  }
  if (run.tools.length) parts.push(`tools: ${run.tools.join(", ")}`);
  if (run.notifications) parts.push(`${run.notifications} notifications`);
  return parts.join(" ");
}

/** Registers `heartbeat`, `heartbeat requeue` and `heartbeat log`. */
export function registerHeartbeat(program: Command, context: CliContext): void {
  const heartbeat = program.command("heartbeat")
    .description("run one heartbeat now and print what it saw and did")
    .option("--dry-run", "print the message and its token estimate; no model call")
    .action(async (options: { dryRun?: boolean }) => {
      const { io } = context;
      const radar = await context.radar();
      const report = await radar.heartbeat.tick({ trigger: "manual", dryRun: options.dryRun });
      io.stdout(
        report.events.length
          ? `Pending events (${report.events.length}):\n${formatEvents(report.events)}\n\n`
          : "No pending events.\n",
      );
      if (report.message !== undefined && options.dryRun) {
        io.stdout(`Message that would be sent:\n${report.message}\n\n`);
        io.stdout(`Estimated prompt tokens: ${report.estimatedPromptTokens}\n`);
        return;
      }
      if (report.outcome === "skipped") {
        io.stdout(`Skipped: ${report.reason} (no model call).\n`);
        return;
      }
      const run = report.runId ? radar.runs.get(report.runId) : undefined;
      if (report.outcome === "failed") {
        io.stdout(`Failed: ${report.reason}. The events stay queued for the next heartbeat.\n`);
        context.setExitCode(1);
        return;
      }
      for (const execution of report.result?.toolExecutions ?? []) {
        io.stdout(`→ ${execution.name}(${execution.argumentsText}) ${execution.result.outcome}\n`);
      }
      io.stdout(`${report.result?.answer.trim() || "(no answer)"}\n`);
      if (run) io.stdout(`\n${describeRun(run, radar.config.radar.timezone || undefined)}\n`);
    });
  heartbeat.command("requeue")
    .description("put events a hook set aside back in the queue for the next heartbeat")
    .action(async () => {
      const { queue } = await context.radar();
      const count = queue.requeueSetAside();
      context.io.stdout(
        count
          ? `Put ${count} set-aside event(s) back in the queue for the next heartbeat.\n`
          : "No events are set aside.\n",
      );
    });
  heartbeat.command("log")
    .description("recent ticks: why they woke, what they cost, what they did")
    .option("-n, --limit <n>", "how many", "20")
    .option("--all", "include skipped ticks")
    .option("--json", jsonOptionHelp)
    .action(async (options: { limit: string; all?: boolean; json?: boolean }) => {
      const { runs, config } = await context.radar();
      const rows = runs.recent(parseLimit(options.limit), {
        skipped: options.all ? undefined : false,
      });
      const empty = options.all
        ? "No ticks yet."
        : "No heartbeat has called the model yet (--all shows skipped ticks).";
      const timeZone = config.radar.timezone || undefined;
      await printListing(context, options.json, rows, empty, (run) => describeRun(run, timeZone));
    });
}
