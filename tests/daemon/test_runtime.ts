/** A real runtime on a temp data directory with a scripted model, for daemon tests. */
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openRuntime, type Runtime } from "../../src/runtime/runtime.ts";
import { type DaemonServices, daemonServices } from "../../src/daemon/services.ts";
import { ScriptedChatModel, type ScriptStep } from "../fakes/scripted_chat_model.ts";

/** A test runtime and its daemon services. */
export interface TestDaemon {
  dir: string;
  clock: ManualClock;
  model: ScriptedChatModel;
  runtime: Runtime;
  services: DaemonServices;
  logLines: string[];
  /** Opens another runtime on the same data directory (a second process). */
  reopen(options?: { pid?: number; steps?: ScriptStep[] }): TestDaemon;
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
export function openTestDaemon(
  options: {
    now?: string;
    yaml?: string;
    steps?: ScriptStep[];
    pid?: number;
    alivePids?: Set<number>;
    dir?: string;
  } = {},
): TestDaemon {
  const dir = options.dir ?? Deno.makeTempDirSync({ prefix: "radar-daemon-" });
  const configPath = join(dir, "radar.yaml");
  if (!options.dir) Deno.writeTextFileSync(configPath, options.yaml ?? defaultYaml);
  const clock = new ManualClock(new Date(options.now ?? "2026-11-23T10:00:00Z"));
  const logLines: string[] = [];
  const runtime = openRuntime({
    configPath,
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock,
    logLevel: "error",
    logWriters: [(line) => logLines.push(line)],
  });
  const model = new ScriptedChatModel(options.steps ?? []);
  const pid = options.pid ?? 1001;
  const alive = options.alivePids ?? new Set([pid]);
  const services = daemonServices(runtime, {
    agent: (overrides) => ({ ...runtime.agent(overrides), model, elapsed: () => 0 }),
    pid,
    isAlive: (candidate) => alive.has(candidate),
  });
  const daemon: TestDaemon = {
    dir,
    clock,
    model,
    runtime,
    services,
    logLines,
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
  const daemon = openTestDaemon(options);
  try {
    await work(daemon);
  } finally {
    daemon.close();
    Deno.removeSync(daemon.dir, { recursive: true });
  }
}
