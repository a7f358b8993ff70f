import assert from "node:assert/strict";
import { join } from "node:path";
import { flagsOfTask } from "../../scripts/task_flags.ts";
import { daemonPermissionFlags } from "../../src/daemon/daemon_command.ts";
import { readLock } from "../../src/daemon/lock_file.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const deno = JSON.parse(Deno.readTextFileSync(join(root, "deno.json")));
const flags = flagsOfTask(deno.tasks.radar);

function environment(home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  };
}

function radar(home: string, args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, join(root, "main.ts"), ...args],
    cwd: home,
    env: environment(home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

async function waitFor<T>(what: string, probe: () => T | undefined, seconds = 30): Promise<T> {
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("the daemon's permission flags are exactly those of deno task radar", () => {
  assert.deepEqual(daemonPermissionFlags, flags);
});

Deno.test("radar serve holds the lock, refuses a second instance and stops cleanly on SIGTERM", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-serve-" });
  const dataDir = join(home, "data");
  try {
    const server = radar(home, ["serve", "--port", "0"]).spawn();
    try {
      const lock = await waitFor("the lock file", () => {
        const info = readLock(dataDir);
        return info?.url ? info : undefined;
      });
      assert.equal(lock.pid, server.pid);
      const health = await fetch(`${lock.url}/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();

      const second = await radar(home, ["serve", "--port", "0"]).output();
      assert.equal(second.code, 1);
      const message = new TextDecoder().decode(second.stderr);
      assert.match(message, new RegExp(`already running .*\\(PID ${server.pid}\\)`));

      server.kill("SIGTERM");
      const status = await server.status;
      assert.equal(status.code, 0);
      assert.equal(readLock(dataDir), undefined, "the lock is released");
      const log = Deno.readTextFileSync(join(dataDir, "logs", "radar.log"));
      assert.match(log, /INFO radar serving/);
      assert.match(log, /INFO radar stopped/);
    } finally {
      try {
        server.kill("SIGKILL");
      } catch { /* already exited */ }
      await server.stdout.cancel();
      await server.stderr.cancel();
      await server.status;
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("radar start detaches, a stale lock is taken over, radar stop waits for the exit", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-start-" });
  const dataDir = join(home, "data");
  try {
    Deno.mkdirSync(dataDir, { recursive: true });
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    Deno.writeTextFileSync(
      join(dataDir, "radar.pid"),
      JSON.stringify({ pid: dead.pid, startedAt: "2026-01-01T00:00:00Z" }),
    );
    const started = await radar(home, ["start", "--port", "0"]).output();
    const out = new TextDecoder().decode(started.stdout);
    assert.equal(started.code, 0, new TextDecoder().decode(started.stderr));
    assert.match(out, /Open the dashboard with: radar dashboard/);
    const pid = Number(out.match(/Radar started \(PID (\d+)\)/)?.[1]);
    assert.equal(readLock(dataDir)?.pid, pid);

    const stopped = await radar(home, ["stop"]).output();
    assert.equal(stopped.code, 0, new TextDecoder().decode(stopped.stderr));
    assert.equal(new TextDecoder().decode(stopped.stdout), `Stopped Radar (PID ${pid}).\n`);
    assert.equal(readLock(dataDir), undefined);
    const again = await radar(home, ["stop"]).output();
    assert.equal(new TextDecoder().decode(again.stdout), "Radar is not running.\n");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
