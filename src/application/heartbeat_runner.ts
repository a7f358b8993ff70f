/**
 * One heartbeat tick as named steps: decide (pending events, quiet hours, nothing new → no model
 * call) → claim (pre_heartbeat hooks, the run row) → triage (the `fast` model, when set) → run
 * (the agent loop) → commit (heartbeat_commit.ts: finish the run, consume its events).
 */
import type { Outbox } from "../core/work_ports.ts";
import type { RadarConfig } from "../config/schema.ts";
import { agentLoopModule } from "./agent_loop_module.ts";
import type { AgentDependencies, AgentResult } from "../core/agent_types.ts";
import { buildHeartbeatMessage, eventsSource, type PendingEvent } from "../core/heartbeat.ts";
import type { ConversationArchive } from "../core/ports.ts";
import { daemonToolNames } from "./offered_tools.ts";
import { decideTick, type HeartbeatOptions } from "./heartbeat_decision.ts";
import { heartbeatScope, runSideEffects } from "../core/run_side_effects.ts";
import { shouldTriage, type TriageOutcome, type TriageRunner } from "./heartbeat_triage.ts";
import {
  type ClaimedHeartbeat,
  commitBlocked,
  commitFailure,
  commitRun,
  commitTriaged,
  type HeartbeatCommitDependencies,
  type HeartbeatReport,
} from "./heartbeat_commit.ts";

import { formatDate } from "../core/zoned_time.ts";
import type { UnattendedBudget } from "./unattended_budget.ts";
import type { ChangeNotices } from "../away/mod.ts";

/** What the heartbeat runner needs. */
interface HeartbeatRunnerDependencies extends HeartbeatCommitDependencies {
  config: RadarConfig;
  conversations: ConversationArchive;
  /** Notifications recorded before they are sent (never twice after a crash). */
  outbox: Outbox;
  /** Agent loop dependencies with a bounded history window. */
  agent: (overrides?: { historyMessages?: number }) => Promise<AgentDependencies>;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** The `fast` model's triage: asked first, the main model runs only when it says so. */
  triage?: TriageRunner;
  /** `budget:`: a scheduled heartbeat past today's tokens waits (its events stay queued). */
  budget?: Pick<UnattendedBudget, "pausedFor">;
  /** Tells the user what a run changed on its own (absent: nothing is told). */
  changeNotices?: Pick<ChangeNotices, "mark" | "tell">;
}

export type { HeartbeatOptions } from "./heartbeat_decision.ts";

/** Runs heartbeat ticks; ticks of one runner never overlap. */
export class HeartbeatRunner {
  #running = false;
  constructor(private readonly deps: HeartbeatRunnerDependencies) {}

  /** True while a tick is in progress. */
  get running(): boolean {
    return this.#running;
  }

  /** Runs one tick. Never throws for model failures: they are recorded as failed runs. */
  async tick(options: HeartbeatOptions): Promise<HeartbeatReport> {
    if (this.#running) {
      return {
        outcome: "skipped",
        reason: "previous tick still running",
        events: [],
        durationMs: 0,
      };
    }
    this.#running = true;
    try {
      return await this.#tick(options);
    } finally {
      this.#running = false;
    }
  }

  /** decide → claim → triage → run → commit; each step may end the tick with its report. */
  async #tick(options: HeartbeatOptions): Promise<HeartbeatReport> {
    const plan = await this.#decide(options);
    if ("report" in plan) return plan.report;
    if (options.dryRun) return await dryRunReport(plan);
    const claimed = await this.#claim(plan, options.trigger);
    if ("report" in claimed) return claimed.report;
    const triage = await this.#triage(claimed.events, options.signal);
    if (triage?.verdict === "nothing") return await commitTriaged(this.deps, claimed, triage);
    const run = { ...claimed, conversationId: this.#conversation(plan.now, plan.timeZone) };
    const changes = this.deps.changeNotices;
    const mark = changes?.mark();
    this.deps.logger.debug("heartbeat running", { run: run.runId, events: run.events.length });
    let result: AgentResult;
    try {
      result = await this.#run(plan, run, options.signal);
    } catch (error) {
      return await commitFailure(this.deps, run, error);
    }
    if (result.blocked) return await commitBlocked(this.deps, run, result.answer);
    const report = await commitRun(this.deps, run, result, triage);
    // Files changed without anyone asked (grants): one notice says what, with Undo buttons.
    if (changes && mark !== undefined) {
      await changes.tell(mark, run.conversationId).catch((error) =>
        this.deps.logger.warn("cannot tell the run's file changes", { error: String(error) })
      );
    }
    return report;
  }

  /**
   * Decide: the pending events (masked by the queue when read) and whether they, the time and
   * quiet hours call for a run; a skip is recorded (not on a dry run). Else the heartbeat's
   * message, agent and tools.
   */
  async #decide(options: HeartbeatOptions): Promise<HeartbeatPlan | { report: HeartbeatReport }> {
    const { deps } = this;
    const { config } = deps;
    const started = deps.elapsed();
    const decided = decideTick(deps, options);
    if ("report" in decided) return decided;
    const { now, timeZone, pending, events } = decided;
    const agent = await deps.agent({ historyMessages: config.heartbeat.history_messages });
    const morePending = Math.max(0, deps.queue.pendingCount() - pending.length);
    // Events of URL monitors alone are the public web's (unless monitors reach private addresses).
    const source = eventsSource(events, config.tools.fetch_url.allow_private);
    const message = buildHeartbeatMessage({ now, timeZone, events, morePending, source });
    return {
      started,
      now,
      timeZone,
      events,
      message,
      agent,
      toolNames: daemonToolNames(agent, message),
    };
  }

  /**
   * Claim: a scheduled heartbeat past today's budget waits, and pre_heartbeat hooks may block the
   * run (both recorded as skipped, the events stay queued); else a `running` row in the run log,
   * unless another heartbeat (this process or another) holds one.
   */
  async #claim(
    plan: HeartbeatPlan,
    trigger: HeartbeatOptions["trigger"],
  ): Promise<ClaimedHeartbeat | { report: HeartbeatReport }> {
    const { deps } = this;
    const { events, now } = plan;
    const paused = trigger === "schedule"
      ? deps.budget?.pausedFor({ kind: "heartbeat" })
      : undefined;
    const hooks = plan.agent.hooks;
    const blocked = paused
      ? undefined
      : await hooks?.block("pre_heartbeat", { eventCount: events.length });
    const skipped = paused || (blocked && `blocked by a hook: ${blocked.message}`);
    if (skipped) {
      const runId = deps.runs.recordSkipped(trigger, now, deps.pid, skipped);
      return { report: { runId, outcome: "skipped", reason: skipped, events, durationMs: 0 } };
    }
    const claim = deps.runs.claimHeartbeat(trigger, now, deps.pid, deps.isAlive);
    if ("heldBy" in claim) {
      const reason = `another heartbeat is running (PID ${claim.heldBy})`;
      return { report: { outcome: "skipped", reason, events, durationMs: 0 } };
    }
    return { runId: claim.runId, events, message: plan.message, started: plan.started, hooks };
  }

  /**
   * Triage (with `llm.models.fast`): one tool-less YES/NO over the events; a clear NO ends the run
   * without the main model. Urgent events skip it.
   */
  async #triage(events: PendingEvent[], signal?: AbortSignal): Promise<TriageOutcome | undefined> {
    const { triage } = this.deps;
    return triage && shouldTriage(events) ? await triage.triage(events, signal) : undefined;
  }

  /**
   * Run: the message through the agent loop in the day's heartbeat conversation, with the daemon's
   * tools and an outbox scoped to the oldest event (a re-delivered run gets the same keys).
   */
  async #run(
    plan: HeartbeatPlan,
    run: ClaimedHeartbeat & { conversationId: number },
    signal: AbortSignal | undefined,
  ): Promise<AgentResult> {
    const { deps } = this;
    const scope = heartbeatScope(run.events[0]?.id, run.runId);
    const { runAgent } = await agentLoopModule();
    return await runAgent(plan.agent, {
      conversationId: run.conversationId,
      kind: "heartbeat",
      userMessage: plan.message,
      interactive: false,
      signal,
      toolNames: plan.toolNames,
      sideEffects: runSideEffects(deps.outbox, scope, deps.clock, deps.pid, deps.isAlive),
    });
  }

  /** One heartbeat conversation per local day keeps `radar history` readable. */
  #conversation(now: Date, timeZone?: string): number {
    const day = formatDate(now, timeZone);
    const title = `Heartbeat ${day}`;
    const latest = this.deps.conversations.latest("heartbeat");
    if (latest?.title === title) return latest.id;
    return this.deps.conversations.createConversation("heartbeat", title, now);
  }
}

/** What a heartbeat that should run will do, before it claims anything. */
interface HeartbeatPlan extends Pick<ClaimedHeartbeat, "started" | "events" | "message"> {
  now: Date;
  timeZone?: string;
  agent: AgentDependencies;
  toolNames: string[];
}

/** A dry run: the message and its estimated first request, nothing claimed, sent or consumed. */
async function dryRunReport(plan: HeartbeatPlan): Promise<HeartbeatReport> {
  const { agent, message } = plan;
  const { estimateFirstRequestTokens } = await agentLoopModule();
  const tools = plan.toolNames.map((name) => agent.registry.get(name)!);
  return {
    outcome: "skipped",
    reason: "dry run",
    events: plan.events,
    message,
    estimatedPromptTokens: estimateFirstRequestTokens(agent.systemPrompt(), tools, message),
    durationMs: 0,
  };
}
