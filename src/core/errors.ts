/**
 * Domain errors with the exit code and one readable line the CLI prints; `firstLine`, the first line
 * of any error.
 *
 * A damaged database, named: SQLite reported corruption (SQLITE_CORRUPT: "database disk image is
 * malformed", SQLITE_NOTADB: "file is not a database") or the file failed an integrity check.
 * Every command says it in one line naming the file and the way out; a run (ask, chat, heartbeat)
 * stops at once instead of carrying on around it.
 */

/**
 * Exit codes of the CLI: 1 a runtime failure (including `radar status` with the model server
 * unreachable), 2 bad usage or config, 3 an id or name that does not exist (conversation, fact,
 * task, monitor, plugin).
 */
export const ExitCode = { ok: 0, failure: 1, usage: 2, notFound: 3 } as const;

/** An expected failure: printed as one line, never as a stack trace. */
export class RadarError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
    options?: ErrorOptions,
  ) {
    super(message, options);
    // Each subclass is named after itself ("UsageError"), as --verbose prints the cause chain.
    this.name = new.target.name;
  }
}

/** Bad command-line usage or bad input from the user (exit 2). */
export class UsageError extends RadarError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, options);
  }
}

/** Invalid configuration (exit 2). */
export class ConfigError extends RadarError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, options);
  }
}

/** Something named by id or name does not exist (exit 3). */
export class NotFoundError extends RadarError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.notFound, options);
  }
}

/** Kinds of LLM failure the loop and CLI treat differently. */
export type LlmErrorKind =
  | "unreachable"
  | "timeout"
  | "model_not_found"
  | "tools_unsupported"
  | "context_exceeded"
  | "server_error"
  | "bad_request"
  | "bad_response"
  | "cancelled";

/** A failure talking to the model server; `message` says what to do about it. */
export class LlmError extends RadarError {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly retryable: boolean = false,
    options?: ErrorOptions,
  ) {
    super(message, ExitCode.failure, options);
  }
}

/** Returns the chain of causes as lines, for `--verbose`. */
export function causeChain(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof Error) {
      lines.push(`${current.name}: ${current.message}`);
      current = current.cause;
    } else {
      lines.push(String(current));
      break;
    }
  }
  return lines;
}

/** The OS code of a file system error ("EROFS", "ENOSPC", …), when it carries one. */
export function osErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What to do about a damaged database (the commands exist: `db check`, `restore`, `db recover`). */
export const damageAdvice =
  "run `radar db check` to see the damage, then `radar restore` your latest `radar backup`, or " +
  "`radar db recover` to copy everything SQLite can still read into a new database (the damaged " +
  "file is kept aside)";

/** The one line for a damaged database at `path`; `detail` is SQLite's words or the check's. */
export function damagedDatabaseLine(path: string, detail?: string): string {
  const why = detail ? ` (${detail.split("\n")[0].slice(0, 200)})` : "";
  return `The database ${path} is damaged${why}: ${damageAdvice}.`;
}

/** The database file is damaged: one line naming it and the next step (exit 1). */
export class DatabaseDamagedError extends RadarError {
  constructor(readonly path: string, readonly detail: string, options?: ErrorOptions) {
    super(damagedDatabaseLine(path, detail), 1, options);
  }
}

/** The first line of an error's message (or of any other value as text), cut at `cap` characters. */
export function firstLine(error: unknown, cap = Infinity): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, cap);
}
