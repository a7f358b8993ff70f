/** `radar serve`: lock, dashboard, scheduler and event sources until the shutdown signal. */
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

/** SIGUSR1's number and the C library that sets its disposition, per OS. */
const inspectorSignal: Partial<Record<typeof Deno.build.os, { library: string; number: number }>> =
  {
    linux: { library: "libc.so.6", number: 10 },
    darwin: { library: "/usr/lib/libSystem.B.dylib", number: 30 },
  };

/**
 * Makes SIGUSR1 harmless. Deno ≥ 2.9.2 opens a V8 inspector on 127.0.0.1:9229 when the process
 * receives SIGUSR1 (a JS listener does not stop it, measured on 2.9.6), and anything that can
 * signal the daemon could then run code inside it. A JS listener first makes Deno install its
 * one process-wide handler (it never installs a second); then `signal(SIGUSR1, SIG_IGN)` through
 * FFI replaces that handler, so the kernel drops the signal before Deno sees it. Returns a
 * warning when this is impossible (no --allow-ffi, unknown OS), else undefined.
 */
export function ignoreInspectorSignal(): string | undefined {
  const target = inspectorSignal[Deno.build.os];
  if (!target) return undefined; // Windows: no SIGUSR1
  const installDenoHandler = () => {};
  Deno.addSignalListener("SIGUSR1", installDenoHandler);
  try {
    const libc = Deno.dlopen(target.library, {
      signal: { parameters: ["i32", "usize"], result: "usize" },
    });
    const signalIgnore = 1n;
    libc.symbols.signal(target.number, signalIgnore);
    libc.close();
    return undefined;
  } catch (error) {
    return `SIGUSR1 could open a V8 inspector in this process (${
      (error as Error).message.split("\n")[0]
    }); run with --allow-ffi`;
  } finally {
    // The OS-level disposition stays SIG_IGN: Deno never reinstalls its handler.
    Deno.removeSignalListener("SIGUSR1", installDenoHandler);
  }
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
