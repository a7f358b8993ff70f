/** Builds the `radar` command line (npm commander) and runs it with readable errors and exit codes. */
import { Command, CommanderError } from "commander";
import { causeChain, ExitCode, osErrorCode, RadarError } from "../core/errors.ts";
import type { Radar } from "../runtime/open_radar.ts";
import type { CliContext, CliIo, GlobalOptions } from "./context.ts";
import { commandRegistrars } from "./commands/index.ts";
import { refuseUnattendedControl } from "./control_commands.ts";
import { radarVersion } from "../version.ts";
import { DatabaseDamagedError } from "../core/errors.ts";
import { recordDamage } from "../adapters/sqlite/damage_marker.ts";
import { storageFailure } from "../adapters/sqlite/storage_failure.ts";
import { textForTerminal } from "../core/terminal_text.ts";

/** Global options that take a value (the word after them is not a command). */
const valueOptions = new Set(["-c", "--config"]);

/** The command `args` names (the first word that is neither an option nor its value). */
export function commandWord(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    if (word === "--") return args[index + 1];
    if (valueOptions.has(word)) index++;
    else if (!word.startsWith("-")) return word;
  }
  return undefined;
}

/**
 * Builds the command tree: with `args`, only the command they name (a short command loads its own
 * modules, not every command's), none for `--version`; without, or for help, completions and
 * unknown words, all of it.
 */
export async function buildProgram(
  context: CliContext,
  args?: readonly string[],
): Promise<Command> {
  const { io } = context;
  const program = new Command("radar")
    .description("Radar: a local-first personal AI assistant with a heartbeat")
    .version(radarVersion, "-V, --version")
    .option("-c, --config <path>", "config file (default: $XDG_CONFIG_HOME/radar/radar.yaml)")
    .option("-v, --verbose", "show tool calls, prompt sizes and error causes")
    .showHelpAfterError("(run with --help for usage)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) => write(text.replace(/^error: /, "radar: ")),
    });
  program.hook("preAction", (_program, action) => refuseUnattendedControl(action, io));
  // Settings above are inherited by every subcommand created below.
  const word = args && commandWord(args);
  const named = commandRegistrars.filter((registrar) => registrar.name === word);
  const versionOnly = word === undefined &&
    args?.some((arg) => arg === "-V" || arg === "--version");
  const loading = versionOnly
    ? []
    : named.length && word !== "completions"
    ? named
    : commandRegistrars;
  const registrars = await Promise.all(loading.map((registrar) => registrar.load()));
  for (const register of registrars) register(program, context);
  return program;
}

/** Runs the CLI with `args` (without the program name) and returns the exit code. */
export async function runCli(args: string[], rawIo: CliIo): Promise<number> {
  const io = terminalSafe(rawIo);
  let exitCode: number = ExitCode.ok;
  let radar: Radar | undefined;
  const context: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    async config() {
      // Loaded at run time (not while Deno starts): commands that never read the config skip it.
      const [{ loadConfig }, { readTextFileIfExists }]: [
        typeof import("../config/loader.ts"),
        typeof import("../config/config_file.ts"),
      ] = await Promise.all([
        import(new URL("../config/loader.ts", import.meta.url).href),
        import(new URL("../config/config_file.ts", import.meta.url).href),
      ]);
      return loadConfig({
        explicitPath: context.globals().config,
        env: io.env,
        cwd: io.cwd,
        readTextFile: readTextFileIfExists,
      });
    },
    async radar(extra) {
      // Loaded at run time by the first command that opens Radar (`--version` never does).
      const { openRadar } = await import(
        new URL("../runtime/open_radar.ts", import.meta.url).href
      ) as typeof import("../runtime/open_radar.ts");
      radar ??= await openRadar({
        configPath: context.globals().config,
        env: io.env,
        cwd: io.cwd,
        logLevel: context.globals().verbose ? "debug" : undefined,
        ...extra,
      });
      return radar;
    },
    setExitCode(code) {
      exitCode = code;
    },
  };
  const program = await buildProgram(context, args);
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    exitCode = reportError(
      rememberDamage(error, radar?.databasePath),
      io,
      program.opts<GlobalOptions>().verbose ?? false,
    );
  } finally {
    radar?.close();
  }
  return exitCode;
}

/**
 * A damaged database met anywhere (SQLite's corruption errors, named or raw) is remembered next
 * to the file, so the next command refuses it at once, and reported as the one line.
 */
function rememberDamage(error: unknown, databasePath: string | undefined): unknown {
  let damaged: DatabaseDamagedError | undefined;
  if (error instanceof DatabaseDamagedError) damaged = error;
  else if (databasePath && storageFailure(error) === "damaged") {
    damaged = new DatabaseDamagedError(databasePath, (error as Error).message, { cause: error });
  }
  if (!damaged) return error;
  recordDamage(damaged.path, damaged.detail, new Date());
  return damaged;
}

/**
 * The io every command writes through: stdout, stderr and prompts cleaned by `textForTerminal`,
 * so no text a command prints (a digest, a model's words, a server's tool list) drives the
 * terminal, whichever command prints it.
 */
function terminalSafe(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(textForTerminal(text)),
    stderr: (text) => io.stderr(textForTerminal(text)),
    readLine: (prompt) => io.readLine(textForTerminal(prompt)),
  };
}

/** What the user can do about a file system error no command expected (read-only, full). */
const storageProblems: Record<string, string> = {
  EROFS: "Radar cannot change files on a read-only file system (read commands still work)",
  ENOSPC: "the disk is full; free space and try again",
  EDQUOT: "the disk quota is used up; free space and try again",
};

/** Prints one readable line for an error and returns its exit code. */
function reportError(error: unknown, io: CliIo, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has printed its message already; `radar` alone prints the help (code 1 there).
    if (error.exitCode === 0 || error.code === "commander.help") return ExitCode.ok;
    return ExitCode.usage;
  }
  if (error instanceof RadarError) {
    io.stderr(`radar: ${error.message}\n`);
    if (verbose) { for (const line of causeChain(error.cause)) io.stderr(`  caused by ${line}\n`); }
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  const storage = storageProblems[osErrorCode(error) ?? ""];
  if (storage) {
    io.stderr(`radar: ${storage}: ${message}\n`);
    return ExitCode.failure;
  }
  io.stderr(`radar: unexpected failure: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return ExitCode.failure;
}
