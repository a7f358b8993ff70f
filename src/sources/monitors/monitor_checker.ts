/** Checks due URL monitors on the tick: fetch, diff against the last version, queue an event. */
import type { EventQueue, MonitorStore, TickJob, Transaction } from "../../core/work_ports.ts";
import type { RadarConfig } from "../../config/schema.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { backoffMinutes, failingThreshold, formatDurationMinutes } from "../../core/schedule.ts";
import type { MonitorRecord } from "../../core/schedule_ports.ts";
import type { Resolver } from "../../adapters/network/network_guard.ts";
import { shortDiff } from "./text_diff.ts";
import { laterBy } from "../../core/zoned_time.ts";

/** What the checker needs. */
interface MonitorCheckerDependencies {
  config: RadarConfig;
  /** One database transaction (the event and the state it records commit together). */
  transaction: Transaction;
  store: MonitorStore;
  queue: EventQueue;
  clock: Clock;
  logger: Logger;
  fetch: typeof fetch;
  resolve: Resolver;
}

/** What one check found. */
export interface MonitorCheck {
  outcome: "baseline" | "unchanged" | "not_modified" | "changed" | "failed";
  /** The diff (changed) or the error (failed). */
  detail?: string;
  eventId?: number;
}

/** Monitors checked per tick at most; the rest stay due for the next minute. */
const maxChecksPerTick = 20;

/** The monitor tick job. */
export class MonitorChecker implements TickJob {
  readonly name = "monitors";
  constructor(private readonly deps: MonitorCheckerDependencies) {}

  /** Checks every due monitor, one after another. */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    for (const monitor of this.deps.store.due(now).slice(0, maxChecksPerTick)) {
      if (signal.aborted) return;
      // One broken monitor (a bad row, a bug) is flagged and backed off; the others still run.
      try {
        await this.check(monitor, signal);
      } catch (error) {
        this.#broken(monitor, error);
      }
    }
  }

  /** Records an unexpected failure of one monitor's check: flagged at once, backed off. */
  #broken(monitor: MonitorRecord, error: unknown): void {
    const { deps } = this;
    const message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
    try {
      this.#failed(
        { ...monitor, failures: Math.max(monitor.failures, failingThreshold - 1) },
        message,
        deps.clock.now(),
      );
    } catch (inner) {
      deps.logger.error("cannot record a monitor failure", {
        monitor: monitor.id,
        error: (inner as Error).message,
      });
    }
  }

  /** Checks one monitor now (schedule or `radar monitor check-now`). */
  async check(monitor: MonitorRecord, signal?: AbortSignal): Promise<MonitorCheck> {
    const { deps } = this;
    const settings = deps.config.tools.fetch_url;
    // The page fetch (pinned fetch, the HTML query subprocess) loads with the first check.
    const { fetchPage }: typeof import("./page_fetch.ts") = await import(
      new URL("./page_fetch.ts", import.meta.url).href
    );
    const fetched = await fetchPage(monitor.url, monitor.selector, {
      etag: monitor.etag,
      lastModified: monitor.lastModified,
    }, {
      fetch: deps.fetch,
      allowPrivate: settings.allow_private,
      resolve: deps.resolve,
      timeoutMs: settings.timeout_seconds * 1000,
      signal,
    });
    const at = deps.clock.now();
    if (signal?.aborted) return { outcome: "failed", detail: "cancelled" };
    if (fetched.status === "error") return this.#failed(monitor, fetched.error, at);
    // When, what is due next and the page's validators: every stored success has them.
    const checked = { at, nextCheckAt: laterBy(at, monitor.everyMinutes), ...fetched.validators };
    if (fetched.status === "not_modified" || fetched.text === monitor.content) {
      const outcome = fetched.status === "not_modified" ? "not_modified" : "unchanged";
      const eventId = deps.transaction(() => {
        deps.store.recordSuccess(monitor.id, {
          ...checked,
          result: outcome === "not_modified" ? "not modified (304)" : "unchanged",
          changed: false,
        });
        return this.#recovered(monitor, at);
      });
      return { outcome, eventId };
    }
    if (monitor.content === undefined) {
      const eventId = deps.transaction(() => {
        deps.store.recordSuccess(monitor.id, {
          ...checked,
          result: `first version stored (${fetched.text.length} characters)`,
          content: fetched.text,
          changed: false,
        });
        return this.#recovered(monitor, at);
      });
      return { outcome: "baseline", eventId };
    }
    const diff = await shortDiff(monitor.content, fetched.text);
    const summary = `+${diff.added} −${diff.removed} lines`;
    // The event and the new version commit together: a crash cannot queue a change twice.
    const eventId = deps.transaction(() => {
      const id = deps.queue.enqueue({
        source: `monitor ${monitor.name}`,
        kind: "page_changed",
        summary: `${monitor.url} changed (${summary})`,
        detail: diff.text,
        urgent: monitor.urgent,
      }, at);
      deps.store.recordSuccess(monitor.id, {
        ...checked,
        result: `changed (${summary})`,
        content: fetched.text,
        changed: true,
      });
      this.#recovered(monitor, at);
      return id;
    });
    deps.logger.info("monitored page changed", { monitor: monitor.id, diff: summary });
    return { outcome: "changed", detail: diff.text, eventId };
  }

  /** Queues "answers again" for a monitor that had been flagged failing (inside a transaction). */
  #recovered(monitor: MonitorRecord, at: Date): number | undefined {
    if (monitor.failures < failingThreshold) return undefined;
    this.deps.logger.info("monitor recovered", { monitor: monitor.id, failures: monitor.failures });
    return this.deps.queue.enqueue({
      source: `monitor ${monitor.name}`,
      kind: "monitor_recovered",
      summary: `${monitor.url} answers again after ${monitor.failures} failed checks`,
      dedupeKey: `monitor-recovered:${monitor.id}`,
    }, at);
  }

  #failed(monitor: MonitorRecord, error: string, at: Date): MonitorCheck {
    const { deps } = this;
    const failures = monitor.failures + 1;
    const delay = backoffMinutes(monitor.everyMinutes, failures);
    const nextCheckAt = laterBy(at, delay);
    let eventId: number | undefined;
    deps.transaction(() => {
      deps.store.recordFailure(monitor.id, { at, error, failures, nextCheckAt });
      if (failures === failingThreshold) {
        eventId = deps.queue.enqueue({
          source: `monitor ${monitor.name}`,
          kind: "monitor_failing",
          summary: `${monitor.url} failed ${failures} checks in a row (${error}); ` +
            `next try in ${
              formatDurationMinutes(Math.round((nextCheckAt.getTime() - at.getTime()) / 60_000))
            }`,
          dedupeKey: `monitor-failing:${monitor.id}`,
        }, at);
      }
    });
    const level = failures >= failingThreshold ? "warn" : "info";
    deps.logger[level]("monitor check failed", { monitor: monitor.id, failures, error });
    return { outcome: "failed", detail: error, eventId };
  }
}
