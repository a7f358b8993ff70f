/** The one-minute tick: decides in local time what is due and runs it, never overlapping. */
import type { EventQueue, Outbox, RunLog, TickJob } from "../core/work_ports.ts";
import type { RadarConfig } from "../config/schema.ts";
import { isHeartbeatDue } from "../core/heartbeat.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { HeartbeatTicker } from "./heartbeat_decision.ts";
import type { HeartbeatReport } from "./heartbeat_commit.ts";

/** What the scheduler needs. */
interface SchedulerDependencies {
  config: RadarConfig;
  clock: Clock;
  logger: Logger;
  heartbeat: HeartbeatTicker;
  runs: RunLog;
  queue: EventQueue;
  /** The outbox, pruned with the other old records. */
  outbox?: Outbox;
  /** Run in order on each tick, before the heartbeat, so it sees their events. */
  jobs: TickJob[];
}

/** What one tick did. */
export interface TickSummary {
  skipped?: string;
  heartbeat?: HeartbeatReport;
}

const dayMs = 24 * 60 * 60_000;

/** Runs ticks one at a time; `stop()` lets the current one finish or abandons it. */
export class Scheduler {
  #current: Promise<TickSummary> | undefined;
  #abort = new AbortController();
  #lastMaintenance = 0;

  constructor(private readonly deps: SchedulerDependencies) {}

  /** True while a tick runs. */
  get busy(): boolean {
    return this.#current !== undefined;
  }

  /** Runs one tick unless one is running. `manualHeartbeat` runs the heartbeat now. */
  tick(options: { manualHeartbeat?: boolean } = {}): Promise<TickSummary> {
    if (this.#abort.signal.aborted) return Promise.resolve({ skipped: "stopping" });
    if (this.#current) {
      this.deps.logger.info("tick skipped: the previous tick is still running");
      return Promise.resolve({ skipped: "previous tick still running" });
    }
    const current = this.#run(options.manualHeartbeat ?? false).catch((error) => {
      // A tick never rejects: an unexpected error is logged and the next tick runs as usual.
      this.deps.logger.error("tick failed", { error: (error as Error).message });
      return { skipped: `tick failed: ${(error as Error).message}` };
    }).finally(() => {
      this.#current = undefined;
    });
    this.#current = current;
    return current;
  }

  /** Stops: waits up to `graceMs` for the running tick, then cancels it. */
  async stop(graceMs: number): Promise<void> {
    const current = this.#current;
    if (!current) {
      this.#abort.abort();
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs));
    await Promise.race([current.then(() => {}, () => {}), grace]);
    clearTimeout(timer);
    this.#abort.abort();
    await current.catch(() => {});
  }

  async #run(manualHeartbeat: boolean): Promise<TickSummary> {
    const { deps } = this;
    const signal = this.#abort.signal;
    const now = deps.clock.now();
    for (const job of deps.jobs) {
      if (signal.aborted) return { skipped: "stopping" };
      try {
        await job.run(now, signal);
      } catch (error) {
        deps.logger.error(`${job.name} failed`, { error: (error as Error).message });
      }
    }
    try {
      this.#maintain(now);
    } catch (error) {
      deps.logger.warn("pruning old records failed", { error: (error as Error).message });
    }
    const heartbeatConfig = deps.config.heartbeat;
    if (signal.aborted) return { skipped: "stopping" };
    if (manualHeartbeat) {
      return { heartbeat: await deps.heartbeat.tick({ trigger: "manual", signal }) };
    }
    if (!heartbeatConfig.enabled) return {};
    const last = deps.runs.lastScheduledHeartbeat();
    const interval = this.#backlogWaiting() ? 1 : heartbeatConfig.interval_minutes;
    if (!isHeartbeatDue(last, now, interval)) return {};
    return { heartbeat: await deps.heartbeat.tick({ trigger: "schedule", signal }) };
  }

  /**
   * True when the last scheduled heartbeat worked through events and more are still queued (a
   * burst): the next one then runs on the next tick instead of after the whole interval. A
   * skipped or failed heartbeat (quiet hours, model down) does not hurry the next.
   */
  #backlogWaiting(): boolean {
    const last = this.deps.runs.recent(10, { kind: "heartbeat" })
      .find((run) => run.trigger === "schedule");
    if (!last || last.outcome !== "ran" || last.eventCount === 0) return false;
    return this.deps.queue.pendingCount() > 0;
  }

  /** Once a day: drop skipped ticks and consumed events older than 30 days. */
  #maintain(now: Date): void {
    if (now.getTime() - this.#lastMaintenance < dayMs) return;
    this.#lastMaintenance = now.getTime();
    const before = new Date(now.getTime() - 30 * dayMs);
    const skipped = this.deps.runs.pruneSkipped(before);
    const events = this.deps.queue.pruneConsumed(before);
    const outbox = this.deps.outbox?.prune(before) ?? 0;
    if (skipped || events || outbox) {
      this.deps.logger.info("pruned old records", { skipped, events, outbox });
    }
  }
}
