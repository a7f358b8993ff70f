/**
 * Reads parts of a hostile HTML page by CSS selector (URL monitors' `selector`, DuckDuckGo's result
 * page) with bounded work: the parse runs in a child process (html_query_process.ts) with no
 * permissions and a V8 heap ceiling, killed at the deadline or when the caller aborts, so a page
 * built to make parsers superlinear costs the daemon a few seconds of a child, never its event loop.
 * Measured on Deno 2.9.6: node-html-parser 9.0.7 takes 157 s on 400 KB of `<div>`, parse5 8 with
 * css-select 7 56 s on 400 KB of unclosed formatting tags, htmlparser2 12 96 s; a Worker's
 * `terminate()` leaves the parse spinning a core. A child costs about 200 ms for an ordinary
 * result page and 400 ms for 1 MB (node-html-parser in-process: 6 ms; `deno task bench html`).
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { runProcess } from "../os/run_process.ts";
import { denoChildCommand, denoChildEnvironment, denoDirOf } from "../os/deno_child.ts";
import { htmlQueryFlag } from "./html_query_flag.ts";
import { type HtmlQuery, type HtmlQueryResult, resultSchema } from "./html_query_protocol.ts";
import { firstLine } from "../../core/errors.ts";

export type { HtmlField, HtmlMatch, HtmlQuery, HtmlQueryResult } from "./html_query_protocol.ts";

/** How long one page may take by default (a normal page: well under a second). */
export const defaultHtmlQueryTimeoutMs = 10_000;

/** The child's V8 heap ceiling: a 3 MB page's tree fits; a page built to exhaust it dies alone. */
const heapMb = 256;
/** The answer's bytes at most (the child cuts at 4 M characters). */
const maxOutputBytes = 24 * 1024 * 1024;

/** Limits of one query. */
export interface HtmlQueryOptions {
  /** Killed after this long (default `defaultHtmlQueryTimeoutMs`). */
  timeoutMs?: number;
  /** Killed when this aborts. */
  signal?: AbortSignal;
}

let launch: { argv: string[]; env: Record<string, string> } | undefined;

/** Answers `queries` about `html`; every failure, the deadline included, is a result. */
export async function queryHtml(
  html: string,
  queries: HtmlQuery[],
  options: HtmlQueryOptions = {},
): Promise<HtmlQueryResult> {
  const timeoutMs = options.timeoutMs ?? defaultHtmlQueryTimeoutMs;
  if (options.signal?.aborted) return { status: "failed", message: "cancelled" };
  launch ??= prepareLaunch();
  let run;
  try {
    run = await runProcess({
      argv: launch.argv,
      env: launch.env,
      timeoutMs,
      maxOutputBytes,
      stopAtOutputCap: true,
      signal: options.signal,
      stdin: new TextEncoder().encode(`${JSON.stringify({ queries })}\n${html}`),
    });
  } catch (error) {
    return { status: "failed", message: `cannot start the HTML reader: ${firstLine(error)}` };
  }
  if (run.timedOut) {
    return {
      status: "failed",
      message: `reading its HTML took longer than ${seconds(timeoutMs)} s (stopped)`,
    };
  }
  if (run.aborted) return { status: "failed", message: "cancelled" };
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  try {
    const parsed = resultSchema().safeParse(JSON.parse(line));
    if (parsed.success) return parsed.data;
  } catch { /* no answer line: said below */ }
  const how = run.signal ? `killed by ${run.signal}` : `exit code ${run.code}`;
  const last = run.stderr.trim().split("\n").at(-1)?.slice(0, 200);
  return { status: "failed", message: `the HTML reader ended (${how}${last ? `: ${last}` : ""})` };
}

/** The child's command line and environment (computed once per process). */
function prepareLaunch(): { argv: string[]; env: Record<string, string> } {
  const standalone = Deno.build.standalone;
  // Under `deno run`: where this process's Deno cache keeps the parser (resolved, not loaded).
  const parserFile = standalone ? undefined : fromFileUrl(import.meta.resolve("node-html-parser"));
  const { command, args } = denoChildCommand({
    standalone,
    execPath: Deno.execPath(),
    flag: htmlQueryFlag,
    entry: new URL("./html_query_process.ts", import.meta.url),
    heapMb,
  });
  const env = denoChildEnvironment(
    processEnvironment(),
    parserFile && denoDirOf(parserFile, "node-html-parser"),
    heapMb,
  );
  return { argv: [command, ...args], env };
}

function processEnvironment(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {}; // no --allow-env: the cache folder found above is enough
  }
}

function seconds(milliseconds: number): string {
  return String(Math.round(milliseconds / 100) / 10);
}
