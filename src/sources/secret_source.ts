/**
 * Passwords of mail and calendar accounts: from `password_cmd` (run without a shell, argv split,
 * under a timeout, first line of its output), `password_env`, or the OS keychain. Never stored,
 * never logged; each value read is remembered so log lines, audit rows and tool results redact it.
 */
import { rememberRuntimeSecret } from "../config/secrets.ts";
import { findOnPath, keychainCommand, type KeychainItem, keychainProblem } from "./keychain.ts";
import { readCapped } from "../adapters/network/bounded_read.ts";

/** Where an account's password comes from. */
export interface SecretSettings {
  password_cmd: string;
  password_env: string;
  keychain?: KeychainItem;
}

/** Splits a command line into argv: whitespace separates, '…' and "…" quote, no shell. */
export function splitCommandLine(line: string): string[] {
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
    rememberRuntimeSecret(value);
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
    const detail = new TextDecoder().decode(output.stderr).trim().split("\n")[0]?.slice(0, 200);
    throw new Error(
      `${label}: password_cmd ${program} exited with ${output.code}${detail ? `: ${detail}` : ""}`,
    );
  }
  const value = firstLine(output.stdout);
  if (!value) throw new Error(`${label}: password_cmd ${program} printed nothing`);
  rememberRuntimeSecret(value);
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
  const value = output.success ? firstLine(output.stdout) : "";
  if (!value) {
    const stderr = new TextDecoder().decode(output.stderr);
    throw new Error(`${label}: ${keychainProblem(item, output.code, stderr)}`);
  }
  rememberRuntimeSecret(value);
  return value;
}

/** Bytes of a password program's output read at most (its first line is the password). */
const maxOutputBytes = 64 * 1024;

/**
 * Runs a program without a shell or stdin under the timeout. It runs in its own process group,
 * killed as a whole when the timeout expires (a prompt that forked a helper holding the pipes
 * cannot keep Radar waiting).
 */
async function runQuietly(
  program: string,
  args: string[],
  options: ReadPasswordOptions,
  failure: (reason: string) => Error,
  env?: Record<string, string>,
): Promise<{ success: boolean; code: number; stdout: Uint8Array; stderr: Uint8Array }> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      ...(env ? { env, clearEnv: true } : {}),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "program not found"
      : (error as Error).message;
    throw failure(`failed: ${reason}`);
  }
  let timedOut = false;
  const killGroup = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  try {
    // Only the first line is used: a program that prints without end is cut off (and stopped).
    const stdout = readCapped(new Response(child.stdout), maxOutputBytes).then((read) => {
      if (read.cut) killGroup();
      return read;
    });
    const stderr = readCapped(new Response(child.stderr), maxOutputBytes);
    const status = await child.status;
    killGroup();
    const out = await stdout;
    if (out.cut) return { success: true, code: 0, stdout: out.bytes, stderr: new Uint8Array() };
    if (timedOut || status.signal) throw failure(`timed out after ${options.timeoutMs} ms`);
    return {
      success: status.success,
      code: status.code,
      stdout: out.bytes,
      stderr: (await stderr).bytes,
    };
  } finally {
    clearTimeout(timer);
  }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

function firstLine(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).split("\n")[0].replace(/\r$/, "");
}
