/** `radar logs [-f] [-n N]`: the daemon's log file. */
import { sleep } from "../../adapters/clock.ts";
import { followFile, lastLines, logPath } from "../../daemon/log_file.ts";
import { type Command, InvalidArgumentError } from "commander";
import type { CliContext } from "../context.ts";
import { checkLimit, maxLogLines } from "../../core/bounds.ts";

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a number, found "${value}"`);
  return Number(value);
}

/** Registers `logs`. */
export function registerLogs(program: Command, context: CliContext): void {
  program.command("logs")
    .description("show the daemon's log file")
    .option("-n, --lines <count>", "lines to show", parseCount, 50)
    .option("-f, --follow", "keep printing new lines until Ctrl-C")
    .action(async (options: { lines: number; follow?: boolean }) => {
      checkLimit(options.lines, "--lines", maxLogLines);
      const path = logPath((await context.config()).dataDir);
      let size = 0;
      try {
        size = Deno.statSync(path).size;
        for (const line of lastLines(path, options.lines)) context.io.stdout(`${line}\n`);
      } catch {
        if (!options.follow) {
          context.io.stderr(
            `No log file yet (${path}); \`radar serve\` or \`radar start\` writes it.\n`,
          );
          return;
        }
      }
      if (!options.follow) return;
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      Deno.addSignalListener("SIGINT", onSignal);
      try {
        await followFile(path, size, (text) => context.io.stdout(text), {
          signal: stop.signal,
          sleep,
        });
      } finally {
        Deno.removeSignalListener("SIGINT", onSignal);
      }
    });
}
