/**
 * exec's approval policy: what runs without asking and what needs a person's yes. It is NOT the
 * security boundary (the sandbox is): a command judged read-only still runs with the writable
 * roots mounted read-only, so a wrong judgement can at worst write the scratch folder.
 */
// @ts-types="@types/shell-quote"
import { parse } from "shell-quote";

/** tools.exec.mode */
export type ExecMode = "safe_only" | "block_dangerous" | "allow_all";

/** What exec does with a command; `writeRoots` mounts the user's writable roots writable. */
export type ExecApproval =
  | { action: "run"; writeRoots: boolean; note?: string }
  | { action: "ask"; question: string }
  | { action: "refuse"; reason: string };

/**
 * Programs that cannot write, whatever their arguments (audited one by one against their manuals;
 * GNU coreutils, procps, util-linux, poppler). Left out because some option or argument writes or
 * runs another program: `find` (-delete, -fprint, -exec), `git` (a repository's config runs
 * programs: core.fsmonitor, diff.external), `rg` (--pre), `xxd` (an output file, -r), `file` (-C
 * compiles a magic file), `date` (-s sets the clock), `hostname` (sets the host name), `sort` (-o),
 * `tee`, `dd`, `sed` (-i, w). A command starting with variable assignments (`LD_PRELOAD=… ls`)
 * changes what the program does and is never plainly read-only either.
 */
export const readOnlyPrograms: ReadonlySet<string> = new Set(
  ("ls cat head tail wc grep egrep fgrep stat du df pwd echo printf cal whoami id groups uname " +
    "uptime which whereis type cut tr diff cmp comm md5sum sha1sum sha256sum shasum cksum " +
    "basename dirname realpath readlink jq column nl tac rev od hexdump strings seq true false " +
    "test [ expr ps free nproc lscpu lsblk pdfinfo fold fmt paste join zcat sleep").split(" "),
);

const allowedOperators = new Set(["|", "&&", "||", ";", "<"]);

type Token = string | { op: string; pattern?: string } | { comment: string };

/**
 * True when every command in the line is a known read-only program used read-only: no output
 * redirection (except to /dev/null), no substitutions, no background jobs, no functions.
 */
export function isPlainlyReadOnly(command: string): boolean {
  if (/[`\n\r]|\$\(|<\(|>\(/.test(command)) return false;
  let tokens: Token[];
  try {
    tokens = parse(command, (name) => `$${name}`) as Token[];
  } catch {
    return false;
  }
  const commands: string[][] = [[]];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (typeof token === "string") commands[commands.length - 1].push(token);
    else if ("comment" in token) continue;
    else if (token.op === "glob") commands[commands.length - 1].push(token.pattern ?? "*");
    else if (token.op === ">" || token.op === ">>") {
      if (tokens[index + 1] !== "/dev/null") return false;
      commands[commands.length - 1].pop(); // a "2" before 2>/dev/null
      index++;
    } else if (!allowedOperators.has(token.op)) return false;
    else if (token.op === "<") index++;
    else commands.push([]);
  }
  return commands.every((words) => words.length === 0 || isReadOnlyCommand(words));
}

function isReadOnlyCommand(words: string[]): boolean {
  const start = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (start === -1) return true; // assignments alone set shell variables, nothing else
  return start === 0 && readOnlyPrograms.has(words[0]);
}

/** Everything the decision depends on. */
export interface ApprovalInput {
  command: string;
  mode: ExecMode;
  /** False when no sandbox is available or tools.exec.sandbox is false. */
  sandboxed: boolean;
  /** The user's writable roots (besides the scratch folder), as shown to people. */
  userRoots: readonly string[];
  /** A person can answer a question now. */
  interactive: boolean;
}

/** Decides whether a command runs, needs a yes, or is refused, and with which roots writable. */
export function decideApproval(input: ApprovalInput): ExecApproval {
  if (!input.sandboxed) {
    return input.interactive
      ? {
        action: "ask",
        question:
          `No sandbox is active: this command would run with all your rights:\n  ${input.command}\nRun it?`,
      }
      : {
        action: "refuse",
        reason:
          "No exec sandbox is active, so exec never runs unattended (heartbeats, tasks, `radar ask`). Install bubblewrap, or run it in `radar chat`",
      };
  }
  const readOnly = isPlainlyReadOnly(input.command);
  if (input.mode === "safe_only") {
    return readOnly ? { action: "run", writeRoots: false } : {
      action: "refuse",
      reason:
        "tools.exec.mode is safe_only and this is not a plainly read-only command (ls, cat, grep, wc, du …)",
    };
  }
  if (input.mode === "allow_all") return { action: "run", writeRoots: true };
  if (readOnly || input.userRoots.length === 0) return { action: "run", writeRoots: false };
  if (input.interactive) {
    return {
      action: "ask",
      question: `Radar wants to run a command that may change files in ${
        input.userRoots.join(", ")
      }:\n  ${input.command}\nRun it?`,
    };
  }
  return {
    action: "run",
    writeRoots: false,
    note: `Unattended run: ${
      input.userRoots.join(", ")
    } were read-only (writing them needs a yes in chat); only the scratch folder was writable.`,
  };
}
