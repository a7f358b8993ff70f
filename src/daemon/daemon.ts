/** `radar serve`: lock, dashboard, scheduler and event sources until the shutdown signal. */
import { ignoreInspectorSignal } from "../adapters/inspector_signal.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { acquireLock } from "./lock_file.ts";
import { Scheduler, type TickJob } from "./scheduler.ts";
import type { DaemonServices } from "./services.ts";

/** A running web server, as web/server.ts returns it. */
export interface WebServerHandle {
  port: number;
  close(): Promise<void>;
}

/** An event source the daemon starts and stops (file watchers). */
export interface EventSource {
  start(): void;
  close(): void;
}

/** What the daemon hands its web server: the runtime and the services behind the dashboard. */
export interface DaemonWebOptions {
  runtime: Runtime;
  host: string;
  port: number;
  signal: AbortSignal;
  services: DaemonServices;
  /** When the daemon took its lock. */
  startedAt: Date;
}

/** What the daemon is built from. */
export interface DaemonOptions {
  services: DaemonServices;
  host: string;
  port: number;
  /** Aborts on SIGINT/SIGTERM. */
  shutdown: AbortSignal;
  startWeb: (options: DaemonWebOptions) => WebServerHandle;
  /** Calls the handler every minute until the signal aborts (Deno.cron in production). */
  ticker: (handler: () => Promise<void>, signal: AbortSignal) => Promise<void>;
  jobs: TickJob[];
  sources: EventSource[];
  /** Called once listening, with the dashboard URL. */
  onReady?: (url: string, scheduler: Scheduler) => void;
  /** How long shutdown waits for a running tick before cancelling it. */
  graceMs?: number;
}

/** Runs the daemon until `shutdown` aborts; releases the lock on the way out. */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  const { services } = options;
  const { runtime } = services;
  const { logger, clock } = runtime;
  const inspectorWarning = ignoreInspectorSignal();
  if (inspectorWarning) logger.warn(inspectorWarning);
  const startedAt = clock.now();
  const lock = acquireLock(
    runtime.dataDir,
    {
      pid: services.pid,
      startedAt: startedAt.toISOString(),
    },
    services.isAlive,
    services.processStart,
  );
  const stopping = new AbortController();
  const sources: EventSource[] = [];
  let web: WebServerHandle | undefined;
  let ticking: Promise<void> | undefined;
  const scheduler = new Scheduler({
    config: runtime.config,
    clock,
    logger,
    heartbeat: services.heartbeat,
    runs: services.runs,
    queue: services.queue,
    outbox: services.outbox,
    jobs: options.jobs,
  });
  try {
    const abandoned = services.runs.closeAbandoned(clock.now(), services.isAlive);
    if (abandoned) {
      logger.warn("closed runs interrupted by a crash; their events are re-delivered", {
        abandoned,
      });
    }
    web = options.startWeb({
      runtime,
      host: options.host,
      port: options.port,
      signal: stopping.signal,
      services,
      startedAt,
    });
    const host = options.host.includes(":") ? `[${options.host}]` : options.host;
    const url = `http://${host}:${web.port}`;
    lock.update({ pid: services.pid, startedAt: clock.now().toISOString(), url });
    for (const source of options.sources) {
      source.start();
      sources.push(source);
    }
    const tick = async () => {
      const summary = await scheduler.tick();
      if (summary.heartbeat && summary.heartbeat.outcome !== "skipped") {
        logger.debug("tick done", { heartbeat: summary.heartbeat.outcome });
      }
    };
    ticking = options.ticker(tick, stopping.signal);
    logger.info("radar serving", { pid: services.pid, url, data: runtime.dataDir });
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
