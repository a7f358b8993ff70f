/** `radar start`: the daemon detached, logging to the data directory; prints its PID. */
import { sleep } from "../../adapters/clock.ts";
import { readLock, runningDaemon } from "../../daemon/lock_file.ts";
import { currentRadarCommand, daemonEnvironment } from "../../daemon/daemon_command.ts";
import { logPath } from "../../daemon/log_file.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { parsePort } from "../arguments.ts";
import { RadarError } from "../../core/errors.ts";

/** Registers `start`. */
export function registerStart(program: Command, context: CliContext): void {
  program.command("start")
    .description("start the daemon in the background and print its PID")
    .option("--host <host>", "dashboard address (default: web.host)")
    .option("--port <port>", "dashboard port (default: web.port)", parsePort)
    .action(async (options: { host?: string; port?: number }) => {
      const loaded = await context.config();
      const running = runningDaemon(loaded.dataDir);
      if (running) throw new RadarError(`Radar is already running (PID ${running.pid})`);
      const args: string[] = [];
      if (loaded.path) args.push("--config", loaded.path);
      args.push("serve");
      if (options.host) args.push("--host", options.host);
      if (options.port !== undefined) args.push("--port", String(options.port));
      const command = currentRadarCommand(args);
      const child = new Deno.Command(command.program, {
        args: command.args,
        cwd: context.io.cwd,
        env: { ...daemonEnvironment, ...context.io.env, RADAR_DATA_DIR: loaded.dataDir },
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
        detached: true,
      }).spawn();
      let exited: number | undefined;
      child.status.then((status) => exited = status.code);
      child.unref();
      const log = logPath(loaded.dataDir);
      const deadline = performance.now() + 15_000;
      while (performance.now() < deadline) {
        if (readLock(loaded.dataDir)?.url && readLock(loaded.dataDir)?.pid === child.pid) {
          context.io.stdout(
            `Radar started (PID ${child.pid}) at ${readLock(loaded.dataDir)!.url}; logs: ${log}\n` +
              "Open the dashboard with: radar dashboard\n",
          );
          return;
        }
        if (exited !== undefined) {
          throw new RadarError(`Radar exited at start (code ${exited}); see ${log}`);
        }
        await sleep(100);
      }
      throw new RadarError(`Radar (PID ${child.pid}) did not report ready within 15 s; see ${log}`);
    });
}
