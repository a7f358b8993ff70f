/** A real runtime on a temp data directory with a scripted model, for daemon tests. */
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import type { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import type { Resolver } from "../../src/adapters/network/network_guard.ts";
import { ScriptedChatModel, type ScriptStep } from "../fakes/scripted_chat_model.ts";

/** A test Radar on a temporary data directory. */
export interface TestDaemon {
  dir: string;
  clock: ManualClock;
  model: ScriptedChatModel;
  runtime: Radar;
  /** The same facade as `runtime` (tests read the daemon's services from it). */
  services: Radar;
  logLines: string[];
  /** A second connection to the database, for tests that corrupt rows on purpose. */
  database(): DatabaseSync;
  /** Opens another runtime on the same data directory (a second process). */
  reopen(options?: { pid?: number; steps?: ScriptStep[] }): Promise<TestDaemon>;
  close(): void;
}

const defaultYaml = `radar:
  timezone: "UTC"
heartbeat:
  interval_minutes: 15
  quiet_hours:
    start: "23:00"
    end: "07:00"
`;

/** Opens a test daemon at `now` (UTC) with `yaml` as its radar.yaml. */
export async function openTestDaemon(
  options: {
    now?: string;
    yaml?: string;
    steps?: ScriptStep[];
    pid?: number;
    alivePids?: Set<number>;
    dir?: string;
    /** DNS of URL monitors. */
    resolve?: Resolver;
  } = {},
): Promise<TestDaemon> {
  const dir = options.dir ?? Deno.makeTempDirSync({ prefix: "radar-daemon-" });
  const configPath = join(dir, "radar.yaml");
  if (!options.dir) Deno.writeTextFileSync(configPath, options.yaml ?? defaultYaml);
  const clock = new ManualClock(new Date(options.now ?? "2026-11-23T10:00:00Z"));
  const logLines: string[] = [];
  const model = new ScriptedChatModel(options.steps ?? []);
  const pid = options.pid ?? 1001;
  const alive = options.alivePids ?? new Set([pid]);
  const runtime = await openRadar({
    configPath,
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock,
    logLevel: "error",
    logWriters: [(line) => logLines.push(line)],
    model,
    process: { pid, isAlive: (candidate) => alive.has(candidate), elapsed: () => 0 },
    resolve: options.resolve,
  });
  let second: DatabaseSync | undefined;
  const daemon: TestDaemon = {
    dir,
    clock,
    model,
    runtime,
    services: runtime,
    logLines,
    database: () => second ??= openDatabase(runtime.databasePath),
    reopen(more = {}) {
      return openTestDaemon({
        dir,
        now: clock.now().toISOString(),
        steps: more.steps,
        pid: more.pid ?? pid + 1,
        alivePids: alive,
      });
    },
    close() {
      second?.close();
      runtime.close();
    },
  };
  return daemon;
}

/** Runs `work` with a test daemon and removes its directory afterwards. */
export async function withTestDaemon(
  options: Parameters<typeof openTestDaemon>[0],
  work: (daemon: TestDaemon) => Promise<void> | void,
): Promise<void> {
  const daemon = await openTestDaemon(options);
  try {
    await work(daemon);
  } finally {
    daemon.close();
    Deno.removeSync(daemon.dir, { recursive: true });
  }
}
