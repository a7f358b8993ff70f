/**
 * What `radar eval [--model M] [--server URL]` does, for the CLI to register: runs the suite,
 * prints a line per task as it finishes and the totals; exit code 0 when every task passed.
 */
import { formatSummary, formatTaskLine } from "./eval_report.ts";
import { runEval } from "./eval_runner.ts";
import { evalTasks } from "./eval_tasks.ts";

/** The command's inputs. */
export interface EvalCommandOptions {
  env: Record<string, string | undefined>;
  configPath?: string;
  model?: string;
  server?: string;
  /** Only the tasks whose id contains this. */
  only?: string;
  write: (line: string) => void;
}

/** Runs `radar eval`; returns the exit code (1 when a task failed). LlmErrors propagate. */
export async function runEvalCommand(options: EvalCommandOptions): Promise<number> {
  const tasks = evalTasks.filter((task) => !options.only || task.id.includes(options.only));
  options.write(`radar eval: ${tasks.length} tasks, each in a scratch home`);
  const report = await runEval({
    env: options.env,
    configPath: options.configPath,
    model: options.model,
    server: options.server,
    tasks,
    onTask: (outcome) => options.write(formatTaskLine(outcome)),
  });
  options.write(formatSummary(report));
  return report.outcomes.every((outcome) => outcome.pass) ? 0 : 1;
}
