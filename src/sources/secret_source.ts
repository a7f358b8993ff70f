/**
 * Passwords of mail and calendar accounts: from `password_cmd` (run without a shell, argv split,
 * under a timeout, first line of its output) or `password_env`. Never stored, never logged; each
 * value read is remembered so tool results and errors redact it.
 */
import { rememberRuntimeSecret } from "../config/secrets.ts";

/** Where an account's password comes from. */
export interface SecretSettings {
  password_cmd: string;
  password_env: string;
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

/** Reads the password of `label` (an account or calendar name); throws one readable line. */
export async function readPassword(
  settings: SecretSettings,
  label: string,
  options: { env: Record<string, string | undefined>; timeoutMs: number },
): Promise<string> {
  if (settings.password_env) {
    const value = options.env[settings.password_env];
    if (!value) throw new Error(`${label}: environment variable ${settings.password_env} is empty`);
    rememberRuntimeSecret(value);
    return value;
  }
  if (!settings.password_cmd) return "";
  const [program, ...args] = splitCommandLine(settings.password_cmd);
  if (!program) throw new Error(`${label}: password_cmd is empty`);
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(options.timeoutMs),
    }).output();
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "program not found"
      : (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError"
      ? "timed out"
      : (error as Error).message;
    throw new Error(`${label}: password_cmd ${program} failed: ${reason}`);
  }
  if (output.signal) {
    throw new Error(`${label}: password_cmd ${program} timed out after ${options.timeoutMs} ms`);
  }
  if (!output.success) {
    const detail = new TextDecoder().decode(output.stderr).trim().split("\n")[0]?.slice(0, 200);
    throw new Error(
      `${label}: password_cmd ${program} exited with ${output.code}${detail ? `: ${detail}` : ""}`,
    );
  }
  const value = new TextDecoder().decode(output.stdout).split("\n")[0].replace(/\r$/, "");
  if (!value) throw new Error(`${label}: password_cmd ${program} printed nothing`);
  rememberRuntimeSecret(value);
  return value;
}
