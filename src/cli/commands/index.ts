/**
 * Every CLI command, one registrar per file, in `--help` order. Add a line here to add a command.
 * Each registrar loads with a literal `import()` (so `deno compile` embeds it): a command loads
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
  { name: "ask", load: async () => (await import("./ask.ts")).registerAsk },
  { name: "chat", load: async () => (await import("./chat.ts")).registerChat },
  { name: "history", load: async () => (await import("./history.ts")).registerHistory },
  { name: "memory", load: async () => (await import("./memory.ts")).registerMemory },
  { name: "status", load: async () => (await import("./status.ts")).registerStatus },
  { name: "config", load: async () => (await import("./config.ts")).registerConfig },
  { name: "tools", load: async () => (await import("./tools.ts")).registerTools },
  { name: "log", load: async () => (await import("./log.ts")).registerLog },
  { name: "plugin", load: async () => (await import("./plugin.ts")).registerPlugin },
  { name: "serve", load: async () => (await import("./serve.ts")).registerServe },
  { name: "start", load: async () => (await import("./start.ts")).registerStart },
  { name: "dashboard", load: async () => (await import("./dashboard.ts")).registerDashboard },
  { name: "stop", load: async () => (await import("./stop.ts")).registerStop },
  { name: "logs", load: async () => (await import("./logs.ts")).registerLogs },
  { name: "heartbeat", load: async () => (await import("./heartbeat.ts")).registerHeartbeat },
  { name: "task", load: async () => (await import("./task.ts")).registerTask },
  { name: "approvals", load: async () => (await import("./approvals.ts")).registerApprovals },
  { name: "grants", load: async () => (await import("./grants.ts")).registerGrants },
  { name: "undo", load: async () => (await import("./undo.ts")).registerUndo },
  {
    name: "notifications",
    load: async () => (await import("./notifications.ts")).registerNotifications,
  },
  { name: "service", load: async () => (await import("./service.ts")).registerService },
  { name: "monitor", load: async () => (await import("./monitor.ts")).registerMonitor },
  { name: "db", load: async () => (await import("./db.ts")).registerDb },
  { name: "backup", load: async () => (await import("./backup.ts")).registerBackup },
  { name: "eval", load: async () => (await import("./eval.ts")).registerEval },
  { name: "hooks", load: async () => (await import("./hooks.ts")).registerHooks },
  { name: "skill", load: async () => (await import("./skill.ts")).registerSkill },
  { name: "library", load: async () => (await import("./library.ts")).registerLibrary },
  { name: "personality", load: async () => (await import("./personality.ts")).registerPersonality },
  { name: "digest", load: async () => (await import("./digest.ts")).registerDigest },
  { name: "money", load: async () => (await import("./money.ts")).registerMoney },
  { name: "completions", load: async () => (await import("./completions.ts")).registerCompletions },
  { name: "version", load: async () => (await import("./version.ts")).registerVersion },
  { name: "mcp", load: async () => (await import("./mcp.ts")).registerMcp },
];
