/** Every CLI command, one registrar per file, in `--help` order. Add a line here to add a command. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { registerAsk } from "./ask.ts";
import { registerChat } from "./chat.ts";
import { registerHistory } from "./history.ts";
import { registerMemory } from "./memory.ts";
import { registerStatus } from "./status.ts";
import { registerDoctor } from "./doctor.ts";
import { registerConfig } from "./config.ts";
import { registerTools } from "./tools.ts";
import { registerLog } from "./log.ts";
import { registerPlugin } from "./plugin.ts";
import { registerServe } from "./serve.ts";
import { registerStart } from "./start.ts";
import { registerDashboard } from "./dashboard.ts";
import { registerStop } from "./stop.ts";
import { registerLogs } from "./logs.ts";
import { registerHeartbeat } from "./heartbeat.ts";
import { registerTask } from "./task.ts";
import { registerService } from "./service.ts";
import { registerMonitor } from "./monitor.ts";
import { registerDb } from "./db.ts";
import { registerBackup } from "./backup.ts";
import { registerEval } from "./eval.ts";
import { registerHooks } from "./hooks.ts";
import { registerSkill } from "./skill.ts";
import { registerCompletions } from "./completions.ts";
import { registerVersion } from "./version.ts";
import { registerMcp } from "./mcp.ts";
import { registerDigest } from "./digest.ts";
import { registerMoney } from "./money.ts";
import { registerPersonality } from "./personality.ts";
import { registerApprovals } from "./approvals.ts";
import { registerGrants } from "./grants.ts";
import { registerUndo } from "./undo.ts";
import { registerNotifications } from "./notifications.ts";
import { registerLibrary } from "./library.ts";
import { registerChannel } from "./channel.ts";

/** Adds one command (and its subcommands) to the program. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;

/** The registrars, in `--help` order. */
export const commandRegistrars: CommandRegistrar[] = [
  registerAsk,
  registerChat,
  registerHistory,
  registerMemory,
  registerStatus,
  registerDoctor,
  registerConfig,
  registerTools,
  registerLog,
  registerPlugin,
  registerServe,
  registerStart,
  registerDashboard,
  registerStop,
  registerLogs,
  registerHeartbeat,
  registerTask,
  registerApprovals,
  registerChannel,
  registerGrants,
  registerUndo,
  registerNotifications,
  registerService,
  registerMonitor,
  registerDb,
  registerBackup,
  registerEval,
  registerHooks,
  registerSkill,
  registerLibrary,
  registerPersonality,
  registerDigest,
  registerMoney,
  registerCompletions,
  registerVersion,
  registerMcp,
];
