/**
 * `radar task log [ID]`: task runs with their tokens, tokens per day against `budget:`, and when
 * each task was due with what became of it and of its notifications (`task_firings.ts`).
 */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import { parseId } from "../arguments.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import { formatTokens, totalTokens } from "../../core/budget.ts";
import { describeRun } from "./heartbeat.ts";
import { firingLines, firingNotifications } from "./task_firings.ts";

/** Registers `task log` under `task`. */
export function registerTaskLog(task: Command, context: CliContext): void {
  task.command("log")
    .description("recent task runs and their tokens; tokens per day against budget:")
    .argument("[id]", "only this task's runs")
    .option("-n, --limit <n>", "how many runs", "20")
    .option("--days <n>", "how many days of totals", "7")
    .option("--json", jsonOptionHelp)
    .action(
      async (id: string | undefined, options: { limit: string; days: string; json?: boolean }) => {
        const limit = Number(options.limit);
        const days = Number(options.days);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
          throw new UsageError("Cannot show the task log: --limit must be 1 to 500");
        }
        if (!Number.isInteger(days) || days < 1 || days > 90) {
          throw new UsageError("Cannot show the task log: --days must be 1 to 90");
        }
        const radar = await context.radar();
        const taskId = id === undefined ? undefined : parseId(id);
        if (taskId !== undefined && !radar.tasks.store.get(taskId)) {
          throw new NotFoundError(`Cannot show the log of task ${id}: no such task`);
        }
        const names = new Map(radar.tasks.list().map((record) => [record.id, record.name]));
        const runs = radar.runs.recent(500, { kind: "task" })
          .filter((run) => taskId === undefined || run.taskId === taskId).slice(0, limit);
        const budget = radar.budget.report(days);
        const firings = radar.taskFirings.recent(limit, taskId);
        if (options.json) {
          return printJson(context, {
            budget,
            runs,
            firings: firings.map((firing) => ({
              ...firing,
              notifications: firingNotifications(radar, firing),
            })),
          });
        }
        const out = (line: string) => context.io.stdout(`${line}\n`);
        const timeZone = radar.config.radar.timezone || undefined;
        const { dailyTokens, taskDailyTokens } = budget.limits;
        const limits = [
          dailyTokens ? `${formatTokens(dailyTokens)} a day` : "",
          taskDailyTokens ? `${formatTokens(taskDailyTokens)} a task` : "",
        ].filter(Boolean).join(", ") || "none (budget.daily_tokens, budget.task_daily_tokens)";
        out(`Tokens of unattended runs per day (budget: ${limits}):`);
        const column = (tokens: number) => formatTokens(tokens).padStart(9);
        for (const day of budget.days) {
          out(
            `  ${day.day}  heartbeats ${column(day.heartbeatTokens)}  tasks ${
              column(day.taskTokens)
            }  summaries ${column(day.summaryTokens)}  digests ${column(day.digestTokens)}  money ${
              column(day.moneyTokens)
            }  vision ${column(day.visionTokens)}  total ${column(totalTokens(day))}${
              day.day === budget.day ? "  (today)" : ""
            }`,
          );
        }
        if (budget.paused) {
          out(
            "  PAUSED today: the daily budget is used up (radar status says until when)",
          );
        }
        const today = budget.byTask.filter((entry) =>
          taskId === undefined || entry.taskId === taskId
        );
        if (today.length) {
          out("Today per task:");
          for (const entry of today) {
            out(
              `  #${entry.taskId} ${names.get(entry.taskId) ?? "(removed)"}: ${
                formatTokens(entry.tokens)
              } tokens${entry.paused ? " — PAUSED until tomorrow" : ""}`,
            );
          }
        }
        if (!runs.length) out("No task runs yet.");
        else out("Recent task runs:");
        for (const run of runs) {
          out(
            `  ${describeRun(run, timeZone)} — ${names.get(run.taskId!) ?? "(removed)"}`,
          );
        }
        // Delivery receipts: when each was due, what became of it, whether its notes arrived.
        if (firings.length) {
          out("When tasks were due:");
          for (const line of firingLines(radar, firings)) out(line);
        }
      },
    );
}
