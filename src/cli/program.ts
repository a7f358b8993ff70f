/** Builds the `radar` command line and runs it with readable errors and exit codes. */
import { importLazily } from "../runtime/lazy_import.ts";
import { Command, CommanderError } from "./command_line.ts";
import { causeChain, ExitCode, RadarError } from "../core/errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { AgentSession } from "../runtime/agent_session.ts";
import type { CliContext, CliIo, GlobalOptions } from "./context.ts";
import { registrarsFor } from "./commands/index.ts";
import { radarVersion } from "../version.ts";

/** Global options that take a value (the command word is found after them). */
const globalOptionsWithValue = ["-c", "--config"];

/** Runs the CLI with `args` (without the program name) and returns the exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.ok;
  // The runtime and the config loader are imported on first use: they pull every tool, zod and
  // yaml, which commands such as `--version` or `stop` never need.
  let runtime: Promise<Runtime> | undefined;
  let session: Promise<AgentSession> | undefined;
  const program = new Command("radar")
    .description("Radar: a local-first personal AI assistant with a heartbeat")
    .version(radarVersion, "-V, --version")
    .option(
      "-c, --config <path>",
      "config file (default: ./radar.yaml, then ~/.config/radar/radar.yaml)",
    )
    .option("-v, --verbose", "show tool calls, prompt sizes and error causes")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    });
  const context: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    async config() {
      const { loadConfig, readTextFileIfExists } = await importLazily<
        typeof import("../config/loader.ts")
      >(new URL("../config/loader.ts", import.meta.url));
      return loadConfig({
        explicitPath: context.globals().config,
        env: io.env,
        cwd: io.cwd,
        readTextFile: readTextFileIfExists,
      });
    },
    runtime(extra) {
      runtime ??= importLazily<typeof import("../runtime/runtime.ts")>(
        new URL("../runtime/runtime.ts", import.meta.url),
      ).then(({ openRuntime }) =>
        openRuntime({
          configPath: context.globals().config,
          env: io.env,
          cwd: io.cwd,
          logLevel: context.globals().verbose ? "debug" : undefined,
          ...extra,
        })
      );
      return runtime;
    },
    agentSession() {
      session ??= importLazily<typeof import("../runtime/agent_session.ts")>(
        new URL("../runtime/agent_session.ts", import.meta.url),
      ).then(({ openAgentSession }) =>
        openAgentSession({
          configPath: context.globals().config,
          env: io.env,
          cwd: io.cwd,
          logLevel: context.globals().verbose ? "debug" : undefined,
        })
      );
      return session;
    },
    setExitCode(code) {
      exitCode = code;
    },
  };
  const registrars = await registrarsFor(args, globalOptionsWithValue);
  for (const register of registrars) register(program, context);
  for (const command of program.commands) applyExitOverride(command);
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    exitCode = reportError(error, io, program.opts<GlobalOptions>().verbose ?? false);
  } finally {
    // A runtime that failed to open was reported above; there is nothing to close then.
    await runtime?.then((opened) => opened.close(), () => undefined);
    await session?.then((opened) => opened.close(), () => undefined);
  }
  return exitCode;
}

function applyExitOverride(command: Command): void {
  command.exitOverride();
  for (const child of command.commands) applyExitOverride(child);
}

/** Prints one readable line for an error and returns its exit code. */
export function reportError(error: unknown, io: CliIo, verbose: boolean): number {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
      error.code === "commander.help"
    ) return ExitCode.ok;
    return ExitCode.usage;
  }
  if (error instanceof RadarError) {
    io.stderr(`radar: ${error.message}\n`);
    if (verbose) { for (const line of causeChain(error.cause)) io.stderr(`  caused by ${line}\n`); }
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`radar: unexpected failure: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return ExitCode.failure;
}
