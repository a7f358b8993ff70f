/** A logger writing one line per entry to stderr (and optionally to a sink such as a log file). */
import type { Logger } from "../core/ports.ts";
import { textForTerminal } from "../core/terminal_text.ts";

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;

/** Log levels, least to most severe. */
export type LogLevel = keyof typeof levels;

/** Formats one log line: time, level, message, then key=value fields (terminal-safe). */
export function formatLogLine(
  at: Date,
  level: LogLevel,
  message: string,
  fields?: Record<string, unknown>,
): string {
  const extra = fields
    ? Object.entries(fields).map(([key, value]) =>
      ` ${key}=${typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null)}`
    ).join("")
    : "";
  return textForTerminal(`${at.toISOString()} ${level.toUpperCase()} ${message}${extra}`);
}

/** Creates a logger that writes lines at or above `minimum` to the given writers. */
export function createLogger(
  minimum: LogLevel,
  writers: Array<(line: string) => void>,
  now: () => Date = () => new Date(),
): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[level] < levels[minimum]) return;
    const line = formatLogLine(now(), level, message, fields);
    for (const write of writers) write(line);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** Writes a line to stderr. */
export function writeStderrLine(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}
