/** The `budget:` lines of `radar status`: today's unattended tokens, limits, what is paused. */
import type { Radar } from "../../runtime/open_radar.ts";
import { describePause, formatTokens, totalTokens } from "../../core/budget.ts";
import { formatLocalTime } from "../../core/zoned_time.ts";

/** One line, plus one per paused task. */
export function budgetStatusLines(radar: Radar): string[] {
  const report = radar.budget.report(1);
  const timeZone = radar.config.radar.timezone || undefined;
  const resumes = `at ${formatLocalTime(new Date(report.resumesAt), timeZone)}`;
  const { dailyTokens, taskDailyTokens } = report.limits;
  const used = totalTokens(report);
  const split = `heartbeats ${formatTokens(report.heartbeatTokens)}, tasks ${
    formatTokens(report.taskTokens)
  }, summaries ${formatTokens(report.summaryTokens)}, digests ${
    formatTokens(report.digestTokens)
  }, money ${formatTokens(report.moneyTokens)}, vision ${formatTokens(report.visionTokens)}`;
  if (!dailyTokens && !taskDailyTokens) {
    return [
      `budget:    no limit (budget.daily_tokens); today ${formatTokens(used)} tokens (${split})`,
    ];
  }
  if (report.paused) return [`budget:    PAUSED — ${describePause(report.paused, resumes)}`];
  const lines = [
    `budget:    ${formatTokens(used)}${
      dailyTokens ? ` of ${formatTokens(dailyTokens)}` : ""
    } tokens today (${split})${
      taskDailyTokens ? `; at most ${formatTokens(taskDailyTokens)} a task` : ""
    }`,
  ];
  for (const task of report.byTask.filter((entry) => entry.paused)) {
    lines.push(
      `  task #${task.taskId} PAUSED: ${formatTokens(task.tokens)} of ${
        formatTokens(taskDailyTokens)
      } tokens today; it resumes ${resumes}`,
    );
  }
  return lines;
}
