/**
 * Every CLI command, one registrar per file, in `--help` order. Add a line here to add a command.
 * Each registrar loads at run time (`import(new URL(…))`: Deno does not load it, nor what it
 * imports, while it starts; `deno compile` embeds the folder, scripts/compile.ts): a command loads
 * its own file and what that imports, not every other command's (`buildProgram`).
 */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** Adds one command (and its subcommands) to the program. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;

/** A command by its name, and how to load its registrar. */
export interface LazyRegistrar {
  /** The command's name (`radar NAME …`). */
  name: string;
  load(): Promise<CommandRegistrar>;
}

/**
 * The commands, in `--help` order: each name is its file (`./NAME.ts`) and that file exports
 * `register` + the name with a capital (`registerAsk`); tests/cli/command_index_test.ts loads
 * every one and checks it.
 */
export const commandNames = [
  "ask",
  "chat",
  "history",
  "memory",
  "status",
  "doctor",
  "config",
  "tools",
  "log",
  "plugin",
  "serve",
  "start",
  "dashboard",
  "stop",
  "logs",
  "heartbeat",
  "task",
  "approvals",
  "channel",
  "grants",
  "undo",
  "notifications",
  "service",
  "monitor",
  "db",
  "backup",
  "eval",
  "hooks",
  "skill",
  "library",
  "personality",
  "digest",
  "money",
  "completions",
  "version",
  "mcp",
] as const;

/** The registrars, in `--help` order. */
export const commandRegistrars: LazyRegistrar[] = commandNames.map((name) => ({
  name,
  load: async () => {
    const module = await import(new URL(`./${name}.ts`, import.meta.url).href);
    return module[`register${name[0].toUpperCase()}${name.slice(1)}`] as CommandRegistrar;
  },
}));
