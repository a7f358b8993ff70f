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

/** The registrars, in `--help` order. */
export const commandRegistrars: LazyRegistrar[] = [
  {
    name: "ask",
    load: async () =>
      (await import(new URL("./ask.ts", import.meta.url).href) as typeof import("./ask.ts"))
        .registerAsk,
  },
  {
    name: "chat",
    load: async () =>
      (await import(new URL("./chat.ts", import.meta.url).href) as typeof import("./chat.ts"))
        .registerChat,
  },
  {
    name: "history",
    load: async () =>
      (await import(new URL("./history.ts", import.meta.url).href) as typeof import("./history.ts"))
        .registerHistory,
  },
  {
    name: "memory",
    load: async () =>
      (await import(new URL("./memory.ts", import.meta.url).href) as typeof import("./memory.ts"))
        .registerMemory,
  },
  {
    name: "status",
    load: async () =>
      (await import(new URL("./status.ts", import.meta.url).href) as typeof import("./status.ts"))
        .registerStatus,
  },
  {
    name: "config",
    load: async () =>
      (await import(new URL("./config.ts", import.meta.url).href) as typeof import("./config.ts"))
        .registerConfig,
  },
  {
    name: "tools",
    load: async () =>
      (await import(new URL("./tools.ts", import.meta.url).href) as typeof import("./tools.ts"))
        .registerTools,
  },
  {
    name: "log",
    load: async () =>
      (await import(new URL("./log.ts", import.meta.url).href) as typeof import("./log.ts"))
        .registerLog,
  },
  {
    name: "plugin",
    load: async () =>
      (await import(new URL("./plugin.ts", import.meta.url).href) as typeof import("./plugin.ts"))
        .registerPlugin,
  },
  {
    name: "serve",
    load: async () =>
      (await import(new URL("./serve.ts", import.meta.url).href) as typeof import("./serve.ts"))
        .registerServe,
  },
  {
    name: "start",
    load: async () =>
      (await import(new URL("./start.ts", import.meta.url).href) as typeof import("./start.ts"))
        .registerStart,
  },
  {
    name: "dashboard",
    load: async () =>
      (await import(
        new URL("./dashboard.ts", import.meta.url).href
      ) as typeof import("./dashboard.ts")).registerDashboard,
  },
  {
    name: "stop",
    load: async () =>
      (await import(new URL("./stop.ts", import.meta.url).href) as typeof import("./stop.ts"))
        .registerStop,
  },
  {
    name: "logs",
    load: async () =>
      (await import(new URL("./logs.ts", import.meta.url).href) as typeof import("./logs.ts"))
        .registerLogs,
  },
  {
    name: "heartbeat",
    load: async () =>
      (await import(
        new URL("./heartbeat.ts", import.meta.url).href
      ) as typeof import("./heartbeat.ts")).registerHeartbeat,
  },
  {
    name: "task",
    load: async () =>
      (await import(new URL("./task.ts", import.meta.url).href) as typeof import("./task.ts"))
        .registerTask,
  },
  {
    name: "approvals",
    load: async () =>
      (await import(
        new URL("./approvals.ts", import.meta.url).href
      ) as typeof import("./approvals.ts")).registerApprovals,
  },
  {
    name: "grants",
    load: async () =>
      (await import(new URL("./grants.ts", import.meta.url).href) as typeof import("./grants.ts"))
        .registerGrants,
  },
  {
    name: "undo",
    load: async () =>
      (await import(new URL("./undo.ts", import.meta.url).href) as typeof import("./undo.ts"))
        .registerUndo,
  },
  {
    name: "notifications",
    load: async () =>
      (await import(
        new URL("./notifications.ts", import.meta.url).href
      ) as typeof import("./notifications.ts")).registerNotifications,
  },
  {
    name: "service",
    load: async () =>
      (await import(new URL("./service.ts", import.meta.url).href) as typeof import("./service.ts"))
        .registerService,
  },
  {
    name: "monitor",
    load: async () =>
      (await import(new URL("./monitor.ts", import.meta.url).href) as typeof import("./monitor.ts"))
        .registerMonitor,
  },
  {
    name: "db",
    load: async () =>
      (await import(new URL("./db.ts", import.meta.url).href) as typeof import("./db.ts"))
        .registerDb,
  },
  {
    name: "backup",
    load: async () =>
      (await import(new URL("./backup.ts", import.meta.url).href) as typeof import("./backup.ts"))
        .registerBackup,
  },
  {
    name: "eval",
    load: async () =>
      (await import(new URL("./eval.ts", import.meta.url).href) as typeof import("./eval.ts"))
        .registerEval,
  },
  {
    name: "hooks",
    load: async () =>
      (await import(new URL("./hooks.ts", import.meta.url).href) as typeof import("./hooks.ts"))
        .registerHooks,
  },
  {
    name: "skill",
    load: async () =>
      (await import(new URL("./skill.ts", import.meta.url).href) as typeof import("./skill.ts"))
        .registerSkill,
  },
  {
    name: "library",
    load: async () =>
      (await import(new URL("./library.ts", import.meta.url).href) as typeof import("./library.ts"))
        .registerLibrary,
  },
  {
    name: "personality",
    load: async () =>
      (await import(
        new URL("./personality.ts", import.meta.url).href
      ) as typeof import("./personality.ts")).registerPersonality,
  },
  {
    name: "digest",
    load: async () =>
      (await import(new URL("./digest.ts", import.meta.url).href) as typeof import("./digest.ts"))
        .registerDigest,
  },
  {
    name: "money",
    load: async () =>
      (await import(new URL("./money.ts", import.meta.url).href) as typeof import("./money.ts"))
        .registerMoney,
  },
  {
    name: "completions",
    load: async () =>
      (await import(
        new URL("./completions.ts", import.meta.url).href
      ) as typeof import("./completions.ts")).registerCompletions,
  },
  {
    name: "version",
    load: async () =>
      (await import(new URL("./version.ts", import.meta.url).href) as typeof import("./version.ts"))
        .registerVersion,
  },
  {
    name: "mcp",
    load: async () =>
      (await import(new URL("./mcp.ts", import.meta.url).href) as typeof import("./mcp.ts"))
        .registerMcp,
  },
];
