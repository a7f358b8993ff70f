/**
 * What a user reads when an MCP server fails to start or dies: instead of the SDK's "MCP error
 * -32000: Connection closed", how it ended, its last stderr lines (capped, secrets masked), and
 * when the sandbox hid its program, that and what to grant; a Deno server that runs offline
 * (`--cached-only`, the sandbox has no network) and found a package missing from Deno's cache,
 * that and the command that caches it; for an HTTP server, its address.
 */
import { redactText } from "../core/secrets.ts";

/** What a stdio transport can tell about its process. */
export interface ProcessReport {
  stderr(): string;
  exitStatus(): Deno.CommandStatus | undefined;
}

/** Characters of stderr shown at most. */
const maxStderrChars = 240;
/** Lines of stderr shown at most (the last ones). */
const maxStderrLines = 3;

/** The last stderr lines as one line: control characters dropped, secrets masked, capped. */
function stderrTail(text: string, secrets: readonly string[]): string {
  const lines = text.split(/\r?\n/)
    // deno-lint-ignore no-control-regex
    .map((line) => line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").replace(/[\u0000-\u001f\u007f]/g, ""))
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-maxStderrLines);
  const joined = redactText(lines.join(" | "), secrets);
  return joined.length > maxStderrChars ? `…${joined.slice(-(maxStderrChars - 1))}` : joined;
}

/** "exited with code 1" / "was killed by SIGSEGV". */
function ending(status: Deno.CommandStatus): string {
  return status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
}

/**
 * What Deno says when a `--cached-only` run misses a package or module: "npm package not found in
 * cache: "NAME", --cached-only is specified" / "Specifier not found in cache: "URL", …".
 */
const notCached =
  /(npm package|Specifier) not found in cache: "([^"]+)", --cached-only is specified/;

/**
 * The command that fills Deno's cache for a `deno run` server command line: the same deno,
 * `cache`, the lock and config flags it runs with, and its module; undefined when `command` is not
 * a `deno run`.
 */
export function cacheCommandFor(command: readonly string[]): string[] | undefined {
  if (!/(^|\/)deno(\.exe)?$/.test(command[0] ?? "") || command[1] !== "run") return undefined;
  const kept: string[] = [];
  for (let index = 2; index < command.length; index++) {
    const word = command[index];
    if (!word.startsWith("-")) return [command[0], "cache", ...kept, word];
    if (/^(--config|-c|--import-map|--lock)$/.test(word)) kept.push(word, command[++index]);
    else if (/^--(no-lock|no-config|lock=|config=|import-map=|node-modules-dir)/.test(word)) {
      kept.push(word);
    }
  }
  return undefined;
}

/** A word of a shown command line, in single quotes when a shell would split or expand it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The one line for a server that missed a package in Deno's cache, or undefined. */
function notCachedLine(stderr: string, command: readonly string[]): string | undefined {
  const missing = stderr.match(notCached);
  if (!missing) return undefined;
  const what = missing[1] === "npm package" ? `npm package "${missing[2]}"` : missing[2];
  const cache = cacheCommandFor(command);
  return `its packages are not in Deno's cache (${what}; it runs offline, --cached-only): ` +
    (cache
      ? `cache them with \`${cache.map(shellWord).join(" ")}\``
      : "cache them with `deno cache` on its program");
}

/** A stdio server's failure in words (see the module comment). */
export function explainStdioFailure(
  error: Error,
  report: ProcessReport | undefined,
  context: { hidden: readonly string[]; secrets: readonly string[]; command?: readonly string[] },
): Error {
  const cacheLine = report && notCachedLine(report.stderr(), context.command ?? []);
  if (cacheLine) return new Error(redactText(cacheLine, context.secrets), { cause: error });
  const status = report?.exitStatus();
  const closed = /connection closed/i.test(error.message);
  const what = status && (closed || !/timed? ?out/i.test(error.message))
    ? `it ${ending(status)}${closed ? "" : ` (${error.message})`}`
    : error.message;
  const tail = report ? stderrTail(report.stderr(), context.secrets) : "";
  const parts = [what];
  if (tail) parts.push(`its stderr: ${tail}`);
  if (context.hidden.length && (status || closed)) parts.push(context.hidden[0]);
  return new Error(parts.join("; "), { cause: error });
}

/** An HTTP server's failure, with its address when the message lacks one. */
export function explainHttpFailure(error: Error, url: string): Error {
  const address = new URL(url);
  const where = `${address.origin}${address.pathname}`;
  if (error.message.includes(address.host)) return error;
  const timedOut = /timed? ?out|did not start within/i.test(error.message);
  return new Error(
    `${where} ${timedOut ? "did not answer in time (timed out)" : `failed: ${error.message}`}`,
    { cause: error },
  );
}
