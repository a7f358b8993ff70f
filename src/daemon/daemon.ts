/** `radar serve`: lock, dashboard, scheduler and watchers until the shutdown signal. */
import { ignoreInspectorSignal } from "../adapters/inspector_signal.ts";
import type { Radar } from "../runtime/open_radar.ts";
import { acquireLock } from "./lock_file.ts";
import { Scheduler } from "../application/scheduler.ts";
import type { TickJob } from "../core/work_ports.ts";

/** A running web server, as web/server.ts returns it. */
export interface WebServerHandle {
  port: number;
  close(): Promise<void>;
}

/**
 * What the daemon starts beside its tick and stops at the end: the folder and plugin watchers,
 * IMAP IDLE, the database guard (the event sources that poll are tick jobs, `src/sources/`).
 */
export interface Watcher {
  start(): void;
  close(): void;
}

/** What the daemon hands its web server: the open Radar behind the dashboard. */
export interface DaemonWebOptions {
  radar: Radar;
  host: string;
  port: number;
  signal: AbortSignal;
  /** When the daemon took its lock. */
  startedAt: Date;
  /** The database guard's one line while the database is damaged (`paused`), or undefined. */
  databaseProblem?: () => string | undefined;
}

/** What the daemon is built from. */
export interface DaemonOptions extends Pick<DaemonWebOptions, "radar" | "host" | "port"> {
  /** Aborts on SIGINT/SIGTERM. */
  shutdown: AbortSignal;
  startWeb: (options: DaemonWebOptions) => WebServerHandle;
  /** Calls the handler every minute until the signal aborts (Deno.cron in production). */
  ticker: (handler: () => Promise<void>, signal: AbortSignal) => Promise<void>;
  jobs: TickJob[];
  sources: Watcher[];
  /** Called once listening, with the dashboard URL. */
  onReady?: (url: string, scheduler: Scheduler) => void;
  /** How long shutdown waits for a running tick before cancelling it. */
  graceMs?: number;
  /** Why ticks must not run now (a damaged database), or undefined. */
  paused?: () => string | undefined;
}

/** Runs the daemon until `shutdown` aborts; releases the lock on the way out. */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  const { radar } = options;
  const { logger, clock, process } = radar;
  const inspectorWarning = ignoreInspectorSignal();
  if (inspectorWarning) logger.warn(inspectorWarning);
  const startedAt = clock.now();
  const lock = acquireLock(
    radar.dataDir,
    {
      pid: process.pid,
      startedAt: startedAt.toISOString(),
    },
    process.isAlive,
    process.processStart,
  );
  const stopping = new AbortController();
  const sources: Watcher[] = [];
  let web: WebServerHandle | undefined;
  let ticking: Promise<void> | undefined;
  const scheduler = new Scheduler({
    config: radar.config,
    clock,
    logger,
    heartbeat: radar.heartbeat,
    runs: radar.runs,
    queue: radar.queue,
    outbox: radar.outbox,
    jobs: options.jobs,
  });
  try {
    // A damaged database is not written to (runs of dead processes wait for a sound one).
    const abandoned = options.paused?.()
      ? 0
      : radar.runs.closeAbandoned(clock.now(), process.isAlive);
    if (abandoned) {
      logger.warn("closed runs interrupted by a crash; their events are re-delivered", {
        abandoned,
      });
    }
    web = options.startWeb({
      radar,
      host: options.host,
      port: options.port,
      signal: stopping.signal,
      startedAt,
      databaseProblem: options.paused,
    });
    const host = options.host.includes(":") ? `[${options.host}]` : options.host;
    const url = `http://${host}:${web.port}`;
    lock.update({ pid: process.pid, startedAt: clock.now().toISOString(), url });
    for (const source of options.sources) {
      source.start();
      sources.push(source);
    }
    const tick = async () => {
      if (options.paused?.()) return; // nothing may be written: no task, heartbeat or check
      const summary = await scheduler.tick();
      if (summary.heartbeat && summary.heartbeat.outcome !== "skipped") {
        logger.debug("tick done", { heartbeat: summary.heartbeat.outcome });
      }
    };
    ticking = options.ticker(tick, stopping.signal);
    logger.info("radar serving", { pid: process.pid, url, data: radar.dataDir });
    options.onReady?.(url, scheduler);
    // The first tick runs at once: missed tasks catch up, a due heartbeat is not delayed.
    void tick();
    await new Promise<void>((resolve) => {
      if (options.shutdown.aborted) resolve();
      options.shutdown.addEventListener("abort", () => resolve(), { once: true });
    });
    logger.info("radar stopping");
  } finally {
    stopping.abort();
    await scheduler.stop(options.graceMs ?? 10_000);
    for (const source of sources) source.close();
    await web?.close().catch(() => {});
    await ticking?.catch(() => {});
    lock.release();
    logger.info("radar stopped");
  }
}
