/**
 * Runs `radar eval --suite proactive`: each scenario in a scratch home, its events queued the way
 * the sources queue them, its notes stored, then one real heartbeat (the daemon's runner: its
 * message, its tools, the run guard, the outbox), and the decision scored.
 */
import type { TaskOutcome } from "../core/eval_records.ts";
import { LlmError } from "../core/errors.ts";
import type { Radar } from "../runtime/open_radar.ts";
import {
  blankOutcome,
  failedTask,
  openScratchRadar,
  type ScratchOptions,
  startNotificationCatcher,
  writeFiles,
} from "./scratch_home.ts";
import { type ProactiveScenario, proactiveScenarios } from "./proactive_scenarios.ts";
import { type DecisionTotals, expectedLabel, scoreDecision, totalsOf } from "./proactive_score.ts";

/** How to run the suite. */
export interface ProactiveOptions extends ScratchOptions {
  scenarios?: ProactiveScenario[];
  /** Per scenario (default 180 s). */
  timeoutMs?: number;
  onScenario?: (outcome: TaskOutcome) => void;
}

/** The whole run. */
export interface ProactiveReport {
  model: string;
  server: string;
  outcomes: TaskOutcome[];
  totals: DecisionTotals;
}

/** The heartbeat of a scratch home may always run: nothing new is a scenario too. */
const heartbeatConfig = { heartbeat: { always_call_llm: true } };

/** Runs every scenario in order. LlmErrors that end all hope (unreachable) propagate. */
export async function runProactive(options: ProactiveOptions): Promise<ProactiveReport> {
  const catcher = startNotificationCatcher();
  const report: ProactiveReport = {
    model: "",
    server: "",
    outcomes: [],
    totals: totalsOf([]),
  };
  const verdicts: Parameters<typeof totalsOf>[0][number][] = [];
  try {
    for (const scenario of options.scenarios ?? proactiveScenarios) {
      const { outcome, verdict } = await runScenario(scenario, options, catcher.port, report);
      report.outcomes.push(outcome);
      verdicts.push(verdict);
      options.onScenario?.(outcome);
    }
  } finally {
    await catcher.close();
  }
  report.totals = totalsOf(verdicts);
  return report;
}

/** Before the first scenario: a server that is not there ends the suite with its one line. */
async function refuseUnreachable(runtime: Radar): Promise<void> {
  const status = await runtime.model.status();
  if (!status.reachable) {
    throw new LlmError("unreachable", status.problem ?? `no model server at ${status.baseUrl}`);
  }
  if (status.modelPresent === false) {
    throw new LlmError("model_not_found", status.problem ?? `${status.model} is not installed`);
  }
}

async function runScenario(
  scenario: ProactiveScenario,
  options: ProactiveOptions,
  notifyPort: number,
  report: ProactiveReport,
) {
  const home = Deno.makeTempDirSync({ prefix: `radar-proactive-${scenario.id}-` });
  writeFiles(home, scenario.files ?? {});
  const runtime = await openScratchRadar(options, home, notifyPort, heartbeatConfig);
  const expected = expectedLabel(scenario.expect);
  const outcome: TaskOutcome = { ...blankOutcome(scenario.id), expected };

  let verdict: ReturnType<typeof scoreDecision>["verdict"] = "wrong";
  const started = performance.now();
  try {
    if (!report.model) await refuseUnreachable(runtime);
    const at = runtime.clock.now();
    for (const note of scenario.notes ?? []) {
      runtime.facts.addFact({ category: "personality_note", content: note }, at);
    }
    for (const event of scenario.events(home)) runtime.queue.enqueue(event, at);
    const tick = await runtime.heartbeat.tick({
      trigger: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 180_000),
    });
    outcome.latencyMs = Math.round(performance.now() - started);
    report.model = runtime.config.llm.model;
    report.server = runtime.config.llm.base_url;
    const result = tick.result;
    if (tick.outcome !== "ran" || !result) {
      outcome.reason = `the heartbeat ${tick.outcome}: ${tick.reason}`;
      outcome.decision = "(none)";
    } else {
      outcome.promptTokens = result.usage?.promptTokens ?? 0;
      outcome.completionTokens = result.usage?.completionTokens ?? 0;
      outcome.toolCalls = result.toolExecutions.map((execution) => execution.name);
      outcome.toolResponses = Math.max(0, result.iterations - 1);
      outcome.leakedResponses = result.warnings.filter((line) => /wrote as text/.test(line)).length;
      const { registry } = await runtime.agentStack();
      const scored = scoreDecision(scenario.expect, {
        calls: result.toolExecutions.map((execution) => ({
          name: execution.name,
          argumentsText: execution.argumentsText,
          readOnly: registry.get(execution.name)?.readOnly ?? false,
        })),
        approvals: runtime.away.approvals.list({ pendingOnly: true }).length,
      });
      verdict = scored.verdict;
      outcome.decision = scored.decision;
      outcome.reason = scored.reason;
      outcome.pass = verdict === "right";
      outcome.toolsRight = outcome.pass;
    }
  } catch (error) {
    outcome.latencyMs = Math.round(performance.now() - started);
    outcome.reason = failedTask(error);
  } finally {
    runtime.close();
    Deno.removeSync(home, { recursive: true });
  }
  return { outcome, verdict };
}
