/**
 * A heartbeat's first step, decide, apart from the runner: the pending events, quiet hours and
 * "nothing new" end most ticks without a model call (recorded as skipped). `HeartbeatOnDemand`
 * answers those ticks itself and loads the runner (`heartbeat_runner.ts`: claim, triage, the
 * agent loop, commit) with the first tick that has work; from then on the runner takes every tick.
 */
import type { RadarConfig } from "../config/schema.ts";
import { decideHeartbeat, type PendingEvent } from "../core/heartbeat.ts";
import type { Clock } from "../core/ports.ts";
import type { EventQueue, RunLog } from "../core/work_ports.ts";
import { maxBatchEvents, selectBatch } from "./event_batch.ts";
import type { HeartbeatReport } from "./heartbeat_commit.ts";

/** Options of one tick. */
export interface HeartbeatOptions {
  trigger: "schedule" | "manual";
  /** Build and return the message without claiming, calling the model or consuming. */
  dryRun?: boolean;
  signal?: AbortSignal;
}

/** What deciding reads. */
export interface HeartbeatDecisionDependencies {
  config: RadarConfig;
  queue: EventQueue;
  runs: RunLog;
  clock: Clock;
  pid: number;
}

/** A tick that goes on: when, in which time zone, the batch read and the events to look at. */
export interface HeartbeatToRun {
  now: Date;
  timeZone: string | undefined;
  pending: PendingEvent[];
  events: PendingEvent[];
}

/** Decides one tick: its report when it is skipped (recorded, unless a dry run), else what runs. */
export function decideTick(
  deps: HeartbeatDecisionDependencies,
  options: HeartbeatOptions,
): { report: HeartbeatReport } | HeartbeatToRun {
  const { config } = deps;
  const now = deps.clock.now();
  const timeZone = config.radar.timezone || undefined;
  const pending = selectBatch(
    deps.queue.pending(maxBatchEvents),
    config.heartbeat.max_events_per_tick,
  );
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
    const reason = decision.reason;
    return { report: { runId, outcome: "skipped", reason, events: pending, durationMs: 0 } };
  }
  return { now, timeZone, pending, events: decision.events };
}

/** What ticks the heartbeat (the scheduler, `radar heartbeat`, the proactive eval). */
export interface HeartbeatTicker {
  tick(options: HeartbeatOptions): Promise<HeartbeatReport>;
}

/**
 * The heartbeat as the daemon holds it: a tick with nothing to do is decided and recorded here
 * (exactly as the runner records it); the first tick with work loads the runner, which then takes
 * every tick (its ticks never overlap).
 */
export class HeartbeatOnDemand implements HeartbeatTicker {
  #runner: Promise<HeartbeatTicker> | undefined;
  constructor(
    private readonly deps: HeartbeatDecisionDependencies & {
      /** Builds the runner (its modules load at run time). */
      load: () => Promise<HeartbeatTicker>;
    },
  ) {}

  /** One tick: skipped here, or the runner's. */
  async tick(options: HeartbeatOptions): Promise<HeartbeatReport> {
    if (!this.#runner) {
      const decided = decideTick(this.deps, options);
      if ("report" in decided) return decided.report;
      // A runner that failed to load is tried again on the next tick.
      this.#runner = this.deps.load().catch((error) => {
        this.#runner = undefined;
        throw error;
      });
    }
    return await (await this.#runner).tick(options);
  }
}
