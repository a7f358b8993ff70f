/**
 * One GET for tools that call a web API (web_search, weather): the network guard checks the URL,
 * the connection goes to a checked address, no redirect is followed, and the body is read under a
 * size cap. Every failure is a `WebRequestError` with one readable line.
 */
import { formatSize, readCapped } from "./bounded_read.ts";
import { checkUrlAddresses, type Resolver } from "./network_guard.ts";
import { fetchFromChecked, type PinnedFetch } from "./pinned_fetch.ts";
import { firstLine } from "../../core/errors.ts";

/** A failed guarded request; `message` is one line for the model and the user. */
export class WebRequestError extends Error {
  override name = "WebRequestError";
}

/** How to make the request. */
export interface GuardedGetOptions {
  fetch: typeof fetch;
  resolve: Resolver;
  pinned: PinnedFetch;
  /** True only for endpoints the user configured (a self-hosted SearXNG on the LAN). */
  allowPrivate: boolean;
  maxBytes: number;
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** How the service is named in messages ("DuckDuckGo"). */
  service: string;
}

/** The answer: status, headers and the body as text. */
export interface GuardedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** GETs `url` through the guard; never follows redirects. */
export async function guardedGet(url: URL, options: GuardedGetOptions): Promise<GuardedAnswer> {
  const check = await checkUrlAddresses(url, {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
  });
  if (check.problem !== undefined) {
    throw new WebRequestError(`${options.service} refused: ${check.problem}.`);
  }
  let opened;
  try {
    opened = await fetchFromChecked(url, check.addresses, {
      headers: options.headers,
      redirect: "manual",
      signal: options.signal,
    }, options);
  } catch (error) {
    const reason = options.signal.aborted ? "timed out" : firstLine(error);
    throw new WebRequestError(`Cannot reach ${options.service}: ${reason}.`);
  }
  try {
    const { bytes, cut } = await readCapped(opened.response, options.maxBytes);
    if (cut) {
      throw new WebRequestError(
        `${options.service} sent more than ${formatSize(options.maxBytes)}; stopped reading.`,
      );
    }
    const { status, headers } = opened.response;
    return { status, headers, text: new TextDecoder().decode(bytes) };
  } catch (error) {
    if (error instanceof WebRequestError) throw error;
    const reason = options.signal.aborted ? "timed out" : firstLine(error);
    throw new WebRequestError(`Cannot read the answer of ${options.service}: ${reason}.`);
  } finally {
    opened.close();
  }
}

/** A web answer's text as one bounded line: control characters and runs of space become one. */
export function oneLine(text: string, max: number): string {
  // deno-lint-ignore no-control-regex -- control characters never belong in an answer
  return text.replace(/[\x00-\x1f\x7f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, max);
}
