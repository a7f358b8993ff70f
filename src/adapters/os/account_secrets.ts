/**
 * Passwords of mail and calendar accounts: from `password_cmd` (run without a shell, argv split,
 * under a timeout, first line of its output), `password_env`, or the OS keychain. Never stored,
 * never logged; each value read is reported to the runtime's `Secrets`, so log lines, audit rows,
 * tool results and model requests mask it from then on.
 */
import type { SecretKeeper } from "../../core/secrets.ts";
import { firstLine } from "../../core/errors.ts";
import { findOnPath } from "./quiet_fs.ts";
import { keychainCommand, type KeychainItem, keychainProblem } from "./keychain.ts";
import { type ProcessResult, runProcess } from "./run_process.ts";

/** Where an account's password comes from. */
export interface SecretSettings {
  password_cmd: string;
  password_env: string;
  keychain?: KeychainItem;
}

/** Splits a command line into argv: whitespace separates, '…' and "…" quote, no shell. */
function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(current);
      current = "";
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote) throw new Error("password_cmd has an unclosed quote");
  if (started) words.push(current);
  return words;
}

/** How readPassword runs. */
export interface ReadPasswordOptions {
  env: Record<string, string | undefined>;
  /** Told every password read (the runtime's `Secrets`). */
  secrets: SecretKeeper;
  timeoutMs: number;
  /** The OS whose keychain is asked (default: this one; tests pin it). */
  os?: typeof Deno.build.os;
}

/** Reads the password of `label` (an account or calendar name); throws one readable line. */
export async function readPassword(
  settings: SecretSettings,
  label: string,
  options: ReadPasswordOptions,
): Promise<string> {
  if (settings.password_env) {
    const value = options.env[settings.password_env];
    if (!value) throw new Error(`${label}: environment variable ${settings.password_env} is empty`);
    options.secrets.learn(value);
    return value;
  }
  if (settings.keychain) return await readKeychain(settings.keychain, label, options);
  if (!settings.password_cmd) return "";
  const [program, ...args] = splitCommandLine(settings.password_cmd);
  if (!program) throw new Error(`${label}: password_cmd is empty`);
  const output = await runQuietly(
    program,
    args,
    options,
    (reason) => new Error(`${label}: password_cmd ${program} ${reason}`),
  );
  if (!output.success) {
    const detail = output.stderr.trim().split("\n")[0]?.slice(0, 200);
    throw new Error(
      `${label}: password_cmd ${program} exited with ${output.code}${detail ? `: ${detail}` : ""}`,
    );
  }
  const value = firstLine(output.stdout).replace(/\r$/, "");
  if (!value) throw new Error(`${label}: password_cmd ${program} printed nothing`);
  options.secrets.learn(value);
  return value;
}

async function readKeychain(
  item: KeychainItem,
  label: string,
  options: ReadPasswordOptions,
): Promise<string> {
  const command = keychainCommand(item, options.os ?? Deno.build.os);
  if ("unsupported" in command) throw new Error(`${label}: ${command.unsupported}`);
  const program = findOnPath(command.program, options.env);
  if (!program) throw new Error(`${label}: ${command.missing}`);
  // The user's environment (secret-tool needs the session bus address), no shell.
  const output = await runQuietly(
    program,
    command.args,
    options,
    (reason) => new Error(`${label}: keychain (${command.program}) ${reason}`),
    definedOnly(options.env),
  );
  const value = output.success ? firstLine(output.stdout).replace(/\r$/, "") : "";
  if (!value) {
    throw new Error(`${label}: ${keychainProblem(item, output.code, output.stderr)}`);
  }
  options.secrets.learn(value);
  return value;
}

/** Bytes of a password program's output read at most (its first line is the password). */
const maxOutputBytes = 64 * 1024;

/** What a password program printed, or how it ended. */
interface QuietRun {
  success: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program without a shell or stdin under the timeout, through the one process runner: its
 * own process group, killed as a whole at the timeout (a prompt that forked a helper holding the
 * pipes cannot keep Radar waiting), and stopped once stdout passes 64 KiB (only its first line
 * is used). Throws `failure(reason)` when it cannot start or times out.
 */
async function runQuietly(
  program: string,
  args: string[],
  options: ReadPasswordOptions,
  failure: (reason: string) => Error,
  env?: Record<string, string>,
): Promise<QuietRun> {
  let result: ProcessResult;
  try {
    result = await runProcess({
      argv: [program, ...args],
      ...(env ? { env } : {}),
      timeoutMs: options.timeoutMs,
      maxOutputBytes,
      stopAtOutputCap: true,
    });
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "program not found"
      : (error as Error).message;
    throw failure(`failed: ${reason}`);
  }
  // Cut off at the cap: the first line is all that is wanted, however the program then ended.
  if (result.stdoutCut) return { success: true, code: 0, stdout: result.stdout, stderr: "" };
  if (result.timedOut || result.signal) throw failure(`timed out after ${options.timeoutMs} ms`);
  return {
    success: result.code === 0,
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
