/** One heartbeat tick: claim, collect pending events, decide, run the loop, then consume. */
import type { EventQueue, Outbox, RunLog, Transaction } from "../core/work_ports.ts";
import type { RadarConfig } from "../config/schema.ts";
import { type AgentDependencies, type AgentResult, runAgent } from "../core/agent_loop.ts";
import { estimateFirstRequestTokens } from "../core/agent_loop.ts";
import {
  buildHeartbeatMessage,
  decideHeartbeat,
  maskEvents,
  type PendingEvent,
} from "../core/heartbeat.ts";
import type { Clock, ConversationArchive, Logger } from "../core/ports.ts";
import { daemonToolNames } from "./offered_tools.ts";
import { maxBatchEvents, selectBatch } from "./event_batch.ts";
import { heartbeatScope, runSideEffects } from "./run_side_effects.ts";
import { shouldTriage } from "../core/heartbeat_triage.ts";
import type { TriageOutcome, TriageRunner } from "./heartbeat_triage_step.ts";
import { addUsage } from "../core/messages.ts";
import { formatDate } from "../core/zoned_time.ts";
import type { UnattendedBudget } from "./unattended_budget.ts";

/** What the heartbeat runner needs. */
export interface HeartbeatRunnerDependencies {
  config: RadarConfig;
  /** One database transaction (the event and the state it records commit together). */
  transaction: Transaction;
  queue: EventQueue;
  runs: RunLog;
  conversations: ConversationArchive;
  /** Notifications recorded before they are sent (never twice after a crash). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Agent loop dependencies with a bounded history window. */
  agent: (overrides?: { historyMessages?: number }) => AgentDependencies;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** Monotonic milliseconds. */
  elapsed: () => number;
  /** The `fast` model's triage: asked first, the main model runs only when it says so. */
  triage?: TriageRunner;
  /** `budget:`: a scheduled heartbeat past today's tokens waits (its events stay queued). */
  budget?: Pick<UnattendedBudget, "pausedFor">;
}

/** What one tick saw and did. */
export interface HeartbeatReport {
  runId?: number;
  outcome: "skipped" | "ran" | "failed";
  reason: string;
  events: PendingEvent[];
  message?: string;
  estimatedPromptTokens?: number;
  result?: AgentResult;
  /** What the `fast` model's triage decided, when it ran. */
  triage?: TriageOutcome;
  durationMs: number;
}

/** Options of one tick. */
export interface HeartbeatOptions {
  trigger: "schedule" | "manual";
  /** Build and return the message without claiming, calling the model or consuming. */
  dryRun?: boolean;
  signal?: AbortSignal;
}

/** Blocked heartbeats in a row after which an event is set aside (never consumed). */
export const blockedHeartbeatLimit = 3;

/** Tools whose successful calls count as notifications sent. */
const notifyingTools = new Set(["notify"]);

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

  async #tick(options: HeartbeatOptions): Promise<HeartbeatReport> {
    const { deps } = this;
    const { config, clock } = deps;
    const started = deps.elapsed();
    const now = clock.now();
    const timeZone = config.radar.timezone || undefined;
    const limit = config.heartbeat.max_events_per_tick;
    const pending = selectBatch(deps.queue.pending(maxBatchEvents), limit);
    const decision = decideHeartbeat({
      now,
      timeZone,
      quietHours: config.heartbeat.quiet_hours,
      pending,
      alwaysCallLlm: config.heartbeat.always_call_llm,
      manual: options.trigger === "manual",
    });
    if (decision.action === "skip") {
      const runId = options.dryRun
        ? undefined
        : deps.runs.recordSkipped(options.trigger, now, deps.pid, decision.reason);
      return { runId, outcome: "skipped", reason: decision.reason, events: pending, durationMs: 0 };
    }
    const agent = deps.agent({ historyMessages: config.heartbeat.history_messages });
    // Event text (a mail subject, a file name, a check's output) may quote a secret: masked with
    // the secrets known now, for the triage question and the main message alike.
    const events = maskEvents(decision.events, agent.secrets?.() ?? []);
    const morePending = Math.max(0, deps.queue.pendingCount() - pending.length);
    const message = buildHeartbeatMessage({ now, timeZone, events, morePending });
    const toolNames = daemonToolNames(agent, message);
    if (options.dryRun) {
      const tools = toolNames.map((name) => agent.registry.get(name)!);
      return {
        outcome: "skipped",
        reason: "dry run",
        events,
        message,
        estimatedPromptTokens: estimateFirstRequestTokens(agent.systemPrompt(), tools, message),
        durationMs: 0,
      };
    }
    const paused = options.trigger === "schedule"
      ? deps.budget?.pausedFor({ kind: "heartbeat" })
      : undefined;
    if (paused) {
      const runId = deps.runs.recordSkipped(options.trigger, now, deps.pid, paused);
      return { runId, outcome: "skipped", reason: paused, events, durationMs: 0 };
    }
    // Hooks (src/core/hooks.ts): pre_heartbeat may block the run; post_heartbeat observes it.
    const hooks = agent.hooks;
    const blocked = await hooks?.block("pre_heartbeat", { eventCount: events.length });
    if (blocked) {
      const reason = `blocked by a hook: ${blocked.message}`;
      const runId = deps.runs.recordSkipped(options.trigger, now, deps.pid, reason);
      return { runId, outcome: "skipped", reason, events, durationMs: 0 };
    }
    const claim = deps.runs.claimHeartbeat(options.trigger, now, deps.pid, deps.isAlive);
    if ("heldBy" in claim) {
      return {
        outcome: "skipped",
        reason: `another heartbeat is running (PID ${claim.heldBy})`,
        events,
        durationMs: 0,
      };
    }
    const runId = claim.runId;
    const triage = deps.triage && shouldTriage(events)
      ? await deps.triage.triage(events, options.signal)
      : undefined;
    if (triage?.verdict === "nothing") {
      return await this.#finishTriaged(runId, events, triage, message, started, hooks);
    }
    const conversationId = this.#conversation(now, timeZone);
    deps.logger.debug("heartbeat running", { run: runId, events: events.length });
    let result: AgentResult;
    try {
      result = await runAgent(agent, {
        conversationId,
        kind: "heartbeat",
        userMessage: message,
        interactive: false,
        signal: options.signal,
        toolNames,
        sideEffects: runSideEffects(
          deps.outbox,
          heartbeatScope(events[0]?.id, runId),
          clock,
          deps.pid,
        ),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.runs.finish(runId, {
        outcome: "failed",
        reason,
        eventCount: events.length,
        conversationId,
        durationMs: deps.elapsed() - started,
      }, clock.now());
      deps.logger.warn("heartbeat failed; its events stay queued", { run: runId, reason });
      await hooks?.observeHeartbeat({ eventCount: events.length, success: false, error: reason });
      return {
        runId,
        outcome: "failed",
        reason,
        events,
        message,
        durationMs: deps.elapsed() - started,
      };
    }
    if (result.blocked) {
      return await this.#blocked(runId, events, {
        message,
        conversationId,
        hookMessage: result.answer,
        durationMs: deps.elapsed() - started,
        hooks,
      });
    }
    const durationMs = deps.elapsed() - started;
    const cancelled = result.stopReason === "cancelled";
    const finish = {
      outcome: cancelled ? "failed" as const : "ran" as const,
      reason: (cancelled ? "cancelled (shutdown); its events stay queued" : result.stopReason) +
        (triage ? `; ${triage.note}` : ""),
      eventCount: events.length,
      conversationId,
      promptTokens: addUsage(result.usage, triage?.usage)?.promptTokens,
      completionTokens: addUsage(result.usage, triage?.usage)?.completionTokens,
      modelMs: result.modelDurationMs + (triage?.modelMs ?? 0),
      durationMs,
      tools: result.toolExecutions.map((execution) => execution.name),
      notifications:
        result.toolExecutions.filter((execution) =>
          notifyingTools.has(execution.name) && execution.result.outcome === "ok"
        ).length,
      answer: result.answer,
    };
    const committed = deps.transaction(() => {
      const current = deps.runs.get(runId);
      // Another process closed this run as abandoned: it now owns the events.
      if (current?.outcome !== "running") return false;
      deps.runs.finish(runId, finish, clock.now());
      if (!cancelled) deps.queue.markConsumed(events.map((event) => event.id), runId, clock.now());
      return true;
    });
    if (!committed) {
      deps.logger.warn("heartbeat run was taken over; events left queued", { run: runId });
    }
    await hooks?.observeHeartbeat({
      eventCount: events.length,
      success: finish.outcome === "ran",
      error: finish.outcome === "ran" ? undefined : finish.reason,
    });
    deps.logger.info("heartbeat finished", {
      run: runId,
      outcome: finish.outcome,
      tokens: (finish.promptTokens ?? 0) + (finish.completionTokens ?? 0),
      ms: Math.round(durationMs),
    });
    return {
      runId,
      outcome: finish.outcome,
      reason: finish.reason,
      events,
      message,
      result,
      triage,
      durationMs,
    };
  }

  /**
   * A pre_agent_run hook blocked the heartbeat message: nothing reached the model, so nothing is
   * consumed. The events stay queued for the next heartbeat (a hook may block for a while only);
   * after `blockedHeartbeatLimit` blocked heartbeats an event is set aside with the hook's message
   * (`radar status` shows it), so one event a rule keeps out cannot block every later heartbeat.
   */
  async #blocked(
    runId: number,
    events: PendingEvent[],
    run: {
      message: string;
      conversationId: number;
      hookMessage: string;
      durationMs: number;
      hooks: AgentDependencies["hooks"];
    },
  ): Promise<HeartbeatReport> {
    const { deps } = this;
    const now = deps.clock.now();
    const reason = `blocked by a hook: ${run.hookMessage}`;
    const setAside = deps.transaction(() => {
      if (deps.runs.get(runId)?.outcome !== "running") return undefined;
      const count = deps.queue.markBlocked(
        events.map((event) => event.id),
        runId,
        run.hookMessage,
        now,
        blockedHeartbeatLimit,
      );
      deps.runs.finish(runId, {
        outcome: "skipped",
        reason: count
          ? `${reason}; ${count} event(s) set aside after ${blockedHeartbeatLimit} blocked heartbeats`
          : `${reason}; its events stay queued`,
        eventCount: events.length,
        conversationId: run.conversationId,
        durationMs: run.durationMs,
      }, now);
      return count;
    });
    deps.logger.warn("heartbeat blocked by a hook", { run: runId, setAside, reason });
    await run.hooks?.observeHeartbeat({
      eventCount: events.length,
      success: false,
      error: reason,
    });
    return {
      runId,
      outcome: "skipped",
      reason,
      events,
      message: run.message,
      durationMs: run.durationMs,
    };
  }

  /** The fast model said nothing needs attention: the run is done and its events consumed. */
  async #finishTriaged(
    runId: number,
    events: PendingEvent[],
    triage: TriageOutcome,
    message: string,
    started: number,
    hooks: AgentDependencies["hooks"],
  ): Promise<HeartbeatReport> {
    const { deps } = this;
    const durationMs = deps.elapsed() - started;
    const reason = `nothing needs attention; ${triage.note}`;
    deps.transaction(() => {
      if (deps.runs.get(runId)?.outcome !== "running") return;
      deps.runs.finish(runId, {
        outcome: "ran",
        reason,
        eventCount: events.length,
        promptTokens: triage.usage?.promptTokens,
        completionTokens: triage.usage?.completionTokens,
        modelMs: triage.modelMs,
        durationMs,
        answer: triage.answer,
      }, deps.clock.now());
      deps.queue.markConsumed(events.map((event) => event.id), runId, deps.clock.now());
    });
    await hooks?.observeHeartbeat({ eventCount: events.length, success: true });
    deps.logger.info("heartbeat triaged: nothing needs the main model", { run: runId });
    return { runId, outcome: "ran", reason, events, message, triage, durationMs };
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
