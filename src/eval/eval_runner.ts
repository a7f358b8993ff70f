/**
 * Runs the eval suite against the configured (or given) model server: each task in a fresh
 * scratch home with its own database, the real tools, notifications caught by a local server.
 */
import type { TaskOutcome } from "../core/eval_records.ts";
import { runAgent } from "../core/agent_loop.ts";
import { type EvalTask, evalTasks } from "./eval_tasks.ts";
import {
  blankOutcome,
  failedTask,
  openScratchRadar,
  type ScratchOptions,
  startNotificationCatcher,
  writeFiles,
} from "./scratch_home.ts";

/** How to run the eval. */
export interface EvalOptions extends ScratchOptions {
  tasks?: EvalTask[];
  /** Per task (default 180 s). */
  timeoutMs?: number;
  /** Called after each task. */
  onTask?: (outcome: TaskOutcome) => void;
}

/** The whole run. */
export interface EvalReport {
  model: string;
  server: string;
  outcomes: TaskOutcome[];
}

/** Whether the run called what the task expects. */
function toolsMatch(task: EvalTask, called: ReadonlyArray<{ name: string; ok: boolean }>) {
  const ran = new Set(called.filter((call) => call.ok).map((call) => call.name));
  if (task.expect.none) return called.length === 0;
  return (task.expect.all ?? []).every((name) => ran.has(name)) &&
    (!task.expect.any || task.expect.any.some((name) => ran.has(name)));
}

/** Runs every task (in order) and returns their outcomes. */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const catcher = startNotificationCatcher();
  const report: EvalReport = { model: "", server: "", outcomes: [] };
  try {
    for (const task of options.tasks ?? evalTasks) {
      catcher.bodies.length = 0;
      const outcome = await runTask(task, options, catcher.port, catcher.bodies, report);
      report.outcomes.push(outcome);
      options.onTask?.(outcome);
    }
  } finally {
    await catcher.close();
  }
  return report;
}

async function runTask(
  task: EvalTask,
  options: EvalOptions,
  notifyPort: number,
  notifications: string[],
  report: EvalReport,
): Promise<TaskOutcome> {
  const home = Deno.makeTempDirSync({ prefix: `radar-eval-${task.id}-` });
  writeFiles(home, task.files ?? {});
  const runtime = await openScratchRadar(options, home, notifyPort);
  report.model = runtime.config.llm.model;
  report.server = runtime.config.llm.base_url;
  const outcome: TaskOutcome = blankOutcome(task.id);

  const startedAt = runtime.clock.now();
  const started = performance.now();
  try {
    for (const content of task.facts ?? []) {
      runtime.facts.addFact({ category: "learned_fact", content }, startedAt);
    }
    const conversationId = runtime.conversations.createConversation("ask", task.prompt, startedAt);
    // An eval run asks nobody: an action that needs a yes is refused, never left pending.
    const result = await runAgent({
      ...await runtime.agent(),
      guard: await runtime.away.guard({ approvals: false }),
    }, {
      conversationId,
      kind: "ask",
      userMessage: task.prompt,
      interactive: false,
      signal: AbortSignal.timeout(options.timeoutMs ?? 180_000),
      onEvent: (event) => {
        if (event.type !== "model_finished" || !event.response.toolCalls.length) return;
        outcome.toolResponses++;
        if (event.response.warnings?.some((warning) => /wrote as text/.test(warning))) {
          outcome.leakedResponses++;
        }
      },
    });
    outcome.latencyMs = Math.round(performance.now() - started);
    outcome.promptTokens = result.usage?.promptTokens ?? 0;
    outcome.completionTokens = result.usage?.completionTokens ?? 0;
    outcome.toolCalls = result.toolExecutions.map((execution) => execution.name);
    outcome.toolsRight = toolsMatch(
      task,
      result.toolExecutions.map((execution) => ({
        name: execution.name,
        ok: execution.result.outcome === "ok",
      })),
    );
    const problem = result.stopReason === "answer"
      ? task.check({ home, runtime, result, notifications, startedAt })
      : `stopped: ${result.stopReason}`;
    outcome.pass = problem === undefined && outcome.toolsRight;
    outcome.reason = problem ?? (outcome.toolsRight ? undefined : "expected tools not called");
  } catch (error) {
    outcome.latencyMs = Math.round(performance.now() - started);
    outcome.reason = failedTask(error);
  } finally {
    runtime.close();
    Deno.removeSync(home, { recursive: true });
  }
  return outcome;
}
