/**
 * What `radar eval [--model M] [--server URL]` does, for the CLI to register: runs the suite,
 * prints a line per task as it finishes and the totals; exit code 0 when every task passed.
 */
import { formatSummary, formatTaskLine } from "./eval_report.ts";
import { runEval } from "./eval_runner.ts";
import { evalTasks } from "./eval_tasks.ts";
import { evalRunOf, runStored } from "./eval_history.ts";
import { type EvalHistory, formatHistoryLine } from "../core/eval_records.ts";
import { type ProactiveCommandOptions, runProactiveCommand } from "./proactive_command.ts";

/** The command's inputs: what the proactive suite's command takes, and which suite. */
export interface EvalCommandOptions extends ProactiveCommandOptions {
  /** `tasks` (default) or `proactive` (heartbeat scenarios). */
  suite?: "tasks" | "proactive";
}

/** Runs `radar eval`; returns the exit code (1 when a task failed). LlmErrors propagate. */
export async function runEvalCommand(options: EvalCommandOptions): Promise<number> {
  if (options.suite === "proactive") return await runProactiveCommand(options);
  const tasks = evalTasks.filter((task) => !options.only || task.id.includes(options.only));
  return await runStored({
    header: `radar eval: ${tasks.length} tasks, each in a scratch home`,
    run: () =>
      runEval({
        ...options,
        tasks,
        onTask: (outcome) => options.write(formatTaskLine(outcome)),
      }),
    summary: formatSummary,
    record: evalRunOf,
    allRight: (report) => report.outcomes.every((outcome) => outcome.pass),
  }, options);
}

/** `radar eval --history [--json]`: stored runs, newest first; exit 0. */
export function showEvalHistory(
  history: EvalHistory,
  options: {
    json?: boolean;
    limit?: number;
    write: (line: string) => void;
    /** The zone times are shown in (`radar.timezone`; the machine's without one). */
    timeZone?: string;
  },
): number {
  const runs = history.recent(options.limit ?? 50);
  if (options.json) {
    const full = runs.map((run) => ({ ...run, outcomes: history.outcomes(run.id) }));
    options.write(JSON.stringify(full, null, 2));
    return 0;
  }
  if (!runs.length) {
    options.write("No eval runs stored yet: run `radar eval`.");
    return 0;
  }
  for (const run of runs) options.write(formatHistoryLine(run, options.timeZone));
  return 0;
}
