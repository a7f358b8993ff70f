/**
 * Control commands change what Radar may do or does unattended (plugin approvals, the login
 * service, tasks that run tools, personality notes). They run only for a person at a terminal:
 * stdin and stderr must be terminals (exec's sandbox and pipes give none) and the process must
 * not run under Radar's own `exec` tool. Everything else works from scripts as before.
 */
import type { Command } from "commander";
import { UsageError } from "../core/errors.ts";
import { underExecVariable } from "../adapters/os/child_environment.ts";
import type { CliIo } from "./context.ts";

/** A control command: its path below `radar`, and optionally which option values make it one. */
export interface ControlCommand {
  path: string;
  when?: (options: Record<string, unknown>) => boolean;
}

/** Every control command. Add a line when a command changes approvals or settings. */
export const controlCommands: ControlCommand[] = [
  { path: "plugin install" },
  { path: "plugin approve" },
  { path: "plugin reject" },
  { path: "plugin enable" },
  { path: "plugin disable" },
  { path: "plugin rollback" },
  { path: "plugin remove" },
  { path: "dashboard" }, // a login link is full control
  { path: "service install" },
  { path: "service uninstall" },
  { path: "task add" },
  { path: "task enable" },
  { path: "task approve" },
  { path: "approvals approve" },
  { path: "approvals deny" },
  { path: "channel pair" }, // the account that sends the code becomes an owner
  { path: "grants add" },
  { path: "grants revoke" },
  { path: "mcp add" },
  { path: "mcp approve" },
  { path: "memory add", when: (options) => options.category === "personality_note" },
  { path: "personality create" },
  { path: "personality edit" },
  { path: "personality use" },
  { path: "personality remove" },
  { path: "restore" }, // an archive brings plugin approvals, tasks and settings
];

/**
 * Why no person can answer here: Radar's own `exec` runs the command, or stdin and stderr are
 * not a terminal (a script, a pipe, a service). Undefined when a person sits at the terminal.
 * Control commands refuse then, and `radar ask` runs without anybody to say yes.
 */
export function whyNoPerson(io: CliIo): string | undefined {
  if (io.env[underExecVariable]) return "it runs under Radar's exec tool";
  if (!io.interactive) return "stdin and stderr are not a terminal";
  return undefined;
}

/** The command's path below the program ("plugin approve"). */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(" ");
}

/** Throws when `command` is a control command and no person at a terminal runs it. */
export function refuseUnattendedControl(command: Command, io: CliIo): void {
  const path = commandPath(command);
  const control = controlCommands.find((entry) =>
    entry.path === path && (entry.when?.(command.opts()) ?? true)
  );
  if (!control) return;
  const reason = whyNoPerson(io);
  if (!reason) return;
  // The dashboard has no login link or restore of its own to offer instead.
  const elsewhere = path === "dashboard" || path === "restore" ? "" : ", or use the dashboard";
  throw new UsageError(
    `Refusing \`radar ${path}\`: ${reason}. Control commands are for a person: run it yourself ` +
      `in a terminal${elsewhere}`,
  );
}
