/**
 * Every CLI command, one registrar per file, loaded on demand: `radar ask …` loads only ask's
 * registrar (the others and what they import cost ~5–9 ms at start-up); `--help`, no command or an
 * unknown one load them all. Add an entry here to add a command; its `name` must be the name the
 * registrar gives `program.command()` (tests/cli/command_table_test.ts checks it).
 */
import type { Command } from "../command_line.ts";
import type { CliContext } from "../context.ts";
import { importLazily } from "../../runtime/lazy_import.ts";

/** Adds one command (and its subcommands) to the program. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;

/** A command's name and how to load its registrar. */
export interface CommandEntry {
  name: string;
  load(): Promise<CommandRegistrar>;
}

/** The commands, in `--help` order. */
export const commandTable: CommandEntry[] = [
  {
    name: "ask",
    load: async () =>
      (await importLazily<typeof import("./ask.ts")>(new URL("./ask.ts", import.meta.url)))
        .registerAsk,
  },
  {
    name: "chat",
    load: async () =>
      (await importLazily<typeof import("./chat.ts")>(new URL("./chat.ts", import.meta.url)))
        .registerChat,
  },
  {
    name: "history",
    load: async () =>
      (await importLazily<typeof import("./history.ts")>(new URL("./history.ts", import.meta.url)))
        .registerHistory,
  },
  {
    name: "memory",
    load: async () =>
      (await importLazily<typeof import("./memory.ts")>(new URL("./memory.ts", import.meta.url)))
        .registerMemory,
  },
  {
    name: "status",
    load: async () =>
      (await importLazily<typeof import("./status.ts")>(new URL("./status.ts", import.meta.url)))
        .registerStatus,
  },
  {
    name: "config",
    load: async () =>
      (await importLazily<typeof import("./config.ts")>(new URL("./config.ts", import.meta.url)))
        .registerConfig,
  },
  {
    name: "tools",
    load: async () =>
      (await importLazily<typeof import("./tools.ts")>(new URL("./tools.ts", import.meta.url)))
        .registerTools,
  },
  {
    name: "log",
    load: async () =>
      (await importLazily<typeof import("./log.ts")>(new URL("./log.ts", import.meta.url)))
        .registerLog,
  },
  {
    name: "plugin",
    load: async () =>
      (await importLazily<typeof import("./plugin.ts")>(new URL("./plugin.ts", import.meta.url)))
        .registerPlugin,
  },
  {
    name: "serve",
    load: async () =>
      (await importLazily<typeof import("./serve.ts")>(new URL("./serve.ts", import.meta.url)))
        .registerServe,
  },
  {
    name: "start",
    load: async () =>
      (await importLazily<typeof import("./start.ts")>(new URL("./start.ts", import.meta.url)))
        .registerStart,
  },
  {
    name: "dashboard",
    load: async () =>
      (await importLazily<typeof import("./dashboard.ts")>(
        new URL("./dashboard.ts", import.meta.url),
      ))
        .registerDashboard,
  },
  {
    name: "stop",
    load: async () =>
      (await importLazily<typeof import("./stop.ts")>(new URL("./stop.ts", import.meta.url)))
        .registerStop,
  },
  {
    name: "logs",
    load: async () =>
      (await importLazily<typeof import("./logs.ts")>(new URL("./logs.ts", import.meta.url)))
        .registerLogs,
  },
  {
    name: "heartbeat",
    load: async () =>
      (await importLazily<typeof import("./heartbeat.ts")>(
        new URL("./heartbeat.ts", import.meta.url),
      ))
        .registerHeartbeat,
  },
  {
    name: "task",
    load: async () =>
      (await importLazily<typeof import("./task.ts")>(new URL("./task.ts", import.meta.url)))
        .registerTask,
  },
  {
    name: "service",
    load: async () =>
      (await importLazily<typeof import("./service.ts")>(new URL("./service.ts", import.meta.url)))
        .registerService,
  },
  {
    name: "monitor",
    load: async () =>
      (await importLazily<typeof import("./monitor.ts")>(new URL("./monitor.ts", import.meta.url)))
        .registerMonitor,
  },
  {
    name: "db",
    load: async () =>
      (await importLazily<typeof import("./db.ts")>(new URL("./db.ts", import.meta.url)))
        .registerDb,
  },
  {
    name: "hooks",
    load: async () =>
      (await importLazily<typeof import("./hooks.ts")>(new URL("./hooks.ts", import.meta.url)))
        .registerHooks,
  },
  {
    name: "skill",
    load: async () =>
      (await importLazily<typeof import("./skill.ts")>(new URL("./skill.ts", import.meta.url)))
        .registerSkill,
  },
];

/**
 * The registrars a command line needs: only the named command's when the first word that is not
 * a global option names one, else every registrar in `--help` order.
 */
export function registrarsFor(
  args: readonly string[],
  globalOptionsWithValue: readonly string[],
): Promise<CommandRegistrar[]> {
  const name = commandWord(args, globalOptionsWithValue);
  const entry = commandTable.find((candidate) => candidate.name === name);
  return Promise.all((entry ? [entry] : commandTable).map((candidate) => candidate.load()));
}

/** The first argument that is neither a global option nor its value; undefined for none. */
function commandWord(
  args: readonly string[],
  globalOptionsWithValue: readonly string[],
): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") return undefined;
    if (!arg.startsWith("-") || arg.length === 1) return arg;
    if (globalOptionsWithValue.includes(arg)) index++; // `-c PATH`: skip the value
  }
  return undefined;
}
