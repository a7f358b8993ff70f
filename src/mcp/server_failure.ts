/**
 * What a user reads when an MCP server fails to start or dies: instead of the SDK's "MCP error
 * -32000: Connection closed", how it ended, its last stderr lines (capped, secrets masked), and
 * when the sandbox hid its program, that and what to grant; for an HTTP server, its address.
 */
import { redactText } from "../core/redact.ts";

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

/** A stdio server's failure in words (see the module comment). */
export function explainStdioFailure(
  error: Error,
  report: ProcessReport | undefined,
  context: { hidden: readonly string[]; secrets: readonly string[] },
): Error {
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
