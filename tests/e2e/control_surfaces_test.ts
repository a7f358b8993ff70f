/**
 * Radar's control surfaces against a local attacker, on a real `radar serve` subprocess: SIGUSR1
 * opens no V8 inspector (Deno would open one on 127.0.0.1:9229), and the dashboard hands a
 * browser session only to `radar dashboard` at a terminal, through a one-time link.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createRadarHome,
  radarEnvironment,
  radarFlags,
  startRadarServe,
} from "../helpers/radar_process.ts";
import { requestLoginLink } from "../../src/cli/commands/dashboard.ts";
import { RadarError } from "../../src/core/errors.ts";
import { dashboardTokenPath } from "../../web/dashboard_token.ts";
import { fromFileUrl } from "../project/file_url.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

const config = 'llm:\n  base_url: "http://127.0.0.1:9"\n  retries: 0\n';

/**
 * TCP ports `pid` listens on (Linux: its socket inodes matched against /proc/net/tcp*). Read by
 * a shell: Deno grants /proc/PID paths only with --allow-all.
 */
async function listeningPorts(pid: number): Promise<number[]> {
  const read = async (script: string) =>
    new TextDecoder().decode(
      (await new Deno.Command("sh", { args: ["-c", script], stderr: "null" }).output()).stdout,
    );
  const links = await read(`ls -l /proc/${pid}/fd`);
  const inodes = new Set([...links.matchAll(/socket:\[(\d+)\]/g)].map((match) => match[1]));
  const ports: number[] = [];
  for (const line of (await read("cat /proc/net/tcp /proc/net/tcp6")).split("\n")) {
    const columns = line.trim().split(/\s+/);
    if (columns.length < 10 || columns[3] !== "0A" || !inodes.has(columns[9])) continue;
    ports.push(parseInt(columns[1].split(":")[1], 16));
  }
  return ports.sort((a, b) => a - b);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test(needing([onLinux], {
  name:
    "radar serve ignores SIGUSR1: no inspector opens and it keeps serving (attack that used to work)",
  async fn() {
    const radar = createRadarHome(config);
    const served = await startRadarServe(radar);
    try {
      const port = Number(new URL(served.url).port);
      // Deno arms its SIGUSR1 handler 500 ms after start; be well past that.
      await sleep(1000);
      assert.deepEqual(await listeningPorts(served.pid), [port]);
      for (let attempt = 0; attempt < 3; attempt++) {
        Deno.kill(served.pid, "SIGUSR1");
        await sleep(300);
      }
      await sleep(500);
      assert.deepEqual(await listeningPorts(served.pid), [port], "only the dashboard listens");
      assert.doesNotMatch(served.stderr(), /Debugger listening|inspector/i);
      const health = await fetch(`${served.url}/health`);
      assert.equal(health.status, 200, "the daemon still serves");
      await health.body?.cancel();
    } finally {
      assert.equal(await served.stop(), 0);
      radar.remove();
    }
  },
}));

Deno.test(needing([onLinux], {
  name: "radar chat (a long-lived process that runs exec) ignores SIGUSR1 too: no inspector opens",
  async fn() {
    const radar = createRadarHome(config);
    const main = join(fromFileUrl(new URL("../../", import.meta.url)), "main.ts");
    // stdin stays open (piped, nothing written): chat waits for its first line.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...radarFlags, main, "chat"],
      cwd: radar.home,
      env: radarEnvironment(radar.home, { RADAR_CONFIG: radar.configPath }),
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      // Signals sent once chat has set SIGUSR1 to "ignore" (before that, no process can guard).
      await ignoresSigusr1(child.pid);
      for (let attempt = 0; attempt < 3; attempt++) {
        Deno.kill(child.pid, "SIGUSR1");
        await sleep(300);
      }
      await sleep(500);
      assert.deepEqual(await listeningPorts(child.pid), [], "nothing listens in radar chat");
    } finally {
      await child.stdin.close();
      try {
        child.kill("SIGKILL");
      } catch { /* it ended at the end of its input already */ }
      await child.status;
      radar.remove();
    }
  },
}));

Deno.test(needing([onLinux], {
  name: "radar dashboard: a one-time link for a person at a terminal, never for a script",
  async fn() {
    const radar = createRadarHome(config);
    const served = await startRadarServe(radar);
    try {
      // Without a terminal (a script, a model's exec): refused, no link.
      const scripted = await radar.command(["dashboard", "--print"]).output();
      assert.equal(scripted.code, 2);
      assert.match(new TextDecoder().decode(scripted.stderr), /not a terminal/);
      assert.equal(new TextDecoder().decode(scripted.stdout), "");

      // At a terminal (script(1) gives it one): a link that logs in once.
      const main = join(fromFileUrl(new URL("../../", import.meta.url)), "main.ts");
      const command = [Deno.execPath(), "run", ...radarFlags, main, "dashboard", "--print"]
        .map((word) => `'${word}'`).join(" ");
      const atTerminal = await new Deno.Command("script", {
        args: ["-qec", command, "/dev/null"],
        cwd: radar.home,
        env: { ...Object.fromEntries(Object.entries(Deno.env.toObject())), ...radarEnv(radar) },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const printed = new TextDecoder().decode(atTerminal.stdout);
      assert.equal(atTerminal.code, 0, printed);
      const link = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w-]+/.exec(printed)?.[0];
      assert.ok(link, printed);
      const token = Deno.readTextFileSync(dashboardTokenPath(radar.dataDir)).trim();
      assert.ok(!printed.includes(token), "the token itself is never printed");
      const login = await fetch(link, { redirect: "manual" });
      assert.equal(login.status, 303);
      assert.match(login.headers.get("set-cookie") ?? "", /HttpOnly/i);
      await login.body?.cancel();
      const reused = await fetch(link, { redirect: "manual" });
      assert.equal(reused.status, 401);
      await reused.body?.cancel();

      // The daemon mints codes only for the token holder.
      await assert.rejects(() => requestLoginLink(served.url, "wrong"), RadarError);
      assert.match(await requestLoginLink(served.url, token), /\/login\?code=/);
    } finally {
      await served.stop();
      radar.remove();
    }
  },
}));

function radarEnv(radar: { home: string; configPath: string }): Record<string, string> {
  return {
    HOME: radar.home,
    RADAR_DATA_DIR: join(radar.home, "data"),
    RADAR_CONFIG: radar.configPath,
    NO_COLOR: "1",
  };
}

/** Waits until `pid`'s SIGUSR1 disposition is "ignore" (bit 10 of SigIgn in /proc/PID/status). */
async function ignoresSigusr1(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // Read through cat: Deno asks for --allow-all to read another process's /proc files.
    const read = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stderr: "null" })
      .output();
    const status = new TextDecoder().decode(read.stdout);
    const ignored = BigInt(`0x${/^SigIgn:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? "0"}`);
    if (ignored & (1n << 9n)) return;
    await sleep(50);
  }
  throw new Error("radar chat never set SIGUSR1 to ignore");
}
