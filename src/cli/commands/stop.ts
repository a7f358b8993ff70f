/** `radar stop`: signal the running daemon through its lock file and wait until it exits. */
import { runningDaemon } from "../../daemon/lock_file.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { RadarError } from "../../core/errors.ts";
import { isProcessAlive } from "../../adapters/os/process.ts";
import { sleep } from "../../adapters/clock.ts";
import { maxTimeoutSeconds } from "../../core/bounds.ts";
import { parseLimit } from "../arguments.ts";

/** Waits until `pid` is gone or `timeoutMs` passed; true when gone. */
async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!isProcessAlive(pid)) return true;
    await sleep(100);
  }
  return !isProcessAlive(pid);
}

/** Registers `stop`. */
export function registerStop(program: Command, context: CliContext): void {
  program.command("stop")
    .description("stop the running daemon and wait until it has exited")
    .option("--timeout <seconds>", "how long to wait (at most 86400)", "30")
    .action(async (given: { timeout: string }) => {
      const options = {
        timeout: parseLimit(given.timeout, "--timeout", maxTimeoutSeconds),
      };
      const { dataDir } = await context.config();
      const daemon = runningDaemon(dataDir);
      if (!daemon) return context.io.stdout("Radar is not running.\n");
      try {
        Deno.kill(daemon.pid, "SIGTERM");
      } catch (error) {
        throw new RadarError(`Cannot stop Radar (PID ${daemon.pid}): ${(error as Error).message}`);
      }
      if (!await waitForExit(daemon.pid, options.timeout * 1000)) {
        throw new RadarError(
          `Radar (PID ${daemon.pid}) did not stop within ${options.timeout} s; ` +
            `\`kill -9 ${daemon.pid}\` forces it (events of an interrupted tick are re-delivered)`,
        );
      }
      context.io.stdout(`Stopped Radar (PID ${daemon.pid}).\n`);
    });
}
