/**
 * Fetching a monitored page: conditional GET (ETag / Last-Modified), the network guard on every
 * redirect, a size cap, then the readable text of the page or of the parts a CSS selector picks
 * (parsed in a child process killed at the check's deadline: hostile markup never stalls a tick).
 */
import { htmlToText } from "../../adapters/network/html_to_text.ts";
import { queryHtml } from "../../adapters/network/html_query.ts";
import { readCapped } from "../../adapters/network/bounded_read.ts";
import { checkUrlAddresses, type Resolver } from "../../adapters/network/network_guard.ts";
import {
  createPinnedFetch,
  fetchFromChecked,
  type PinnedFetch,
  type PinnedResponse,
} from "../../adapters/network/pinned_fetch.ts";
import { firstLine } from "../../core/errors.ts";

/** How to fetch. */
export interface PageFetchOptions {
  fetch: typeof fetch;
  /** tools.fetch_url.allow_private: loopback and private addresses allowed. */
  allowPrivate: boolean;
  resolve: Resolver;
  /** Connects to a checked address (default: over `fetch`); injectable for tests. */
  pinned?: PinnedFetch;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Validators from the last successful fetch. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** What a fetch found. */
export type PageFetch =
  | { status: "not_modified"; validators: Validators }
  | { status: "ok"; text: string; validators: Validators }
  | { status: "error"; error: string };

const maxRedirects = 5;
const maxBodyBytes = 3 * 1024 * 1024;
/** Stored text per monitor; longer pages are cut (the diff then covers the first part). */
export const maxPageChars = 200_000;

/** Fetches `address` conditionally and extracts its text (or the `selector` part). */
export async function fetchPage(
  address: string,
  selector: string,
  previous: Validators,
  options: PageFetchOptions,
): Promise<PageFetch> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { status: "error", error: "not a valid URL" };
  }
  const signal = AbortSignal.any([
    AbortSignal.timeout(options.timeoutMs),
    ...(options.signal ? [options.signal] : []),
  ]);
  const pinned = options.pinned ?? createPinnedFetch(options.fetch);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    // Resolved once and connected to the checked address: no DNS rebinding between the two.
    const check = await checkUrlAddresses(url, {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
    });
    if (check.problem !== undefined) return { status: "error", error: `refused: ${check.problem}` };
    const headers: Record<string, string> = {
      "User-Agent": "Radar/0.1 (page monitor)",
      Accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5",
    };
    if (previous.etag) headers["If-None-Match"] = previous.etag;
    if (previous.lastModified) headers["If-Modified-Since"] = previous.lastModified;
    let opened: PinnedResponse;
    try {
      opened = await fetchFromChecked(url, check.addresses, {
        redirect: "manual",
        signal,
        headers,
      }, { fetch: options.fetch, pinned });
    } catch (error) {
      return { status: "error", error: failureReason(error, signal, options) };
    }
    try {
      // The body can stall or break after the headers: that is the page failing, not a bug.
      const outcome = await readHop(opened.response, selector, previous, {
        signal,
        timeoutMs: options.timeoutMs,
        cancelled: options.signal,
      }).catch((error) => ({
        status: "error" as const,
        error: failureReason(error, signal, options),
      }));
      if (outcome.status !== "redirect") return outcome;
      try {
        url = new URL(outcome.location, url);
      } catch {
        return { status: "error", error: "it redirects to an invalid URL" };
      }
    } finally {
      opened.close();
    }
  }
  return { status: "error", error: `more than ${maxRedirects} redirects` };
}

/** One line for a failed request or body read: a timeout says so. */
function failureReason(error: unknown, signal: AbortSignal, options: PageFetchOptions): string {
  return signal.aborted && !options.signal?.aborted
    ? `timed out after ${Math.round(options.timeoutMs / 1000)} s`
    : firstLine(error);
}

/** One response: a result, or where it redirects to. */
async function readHop(
  response: Response,
  selector: string,
  previous: Validators,
  limits: { signal: AbortSignal; timeoutMs: number; cancelled?: AbortSignal },
): Promise<PageFetch | { status: "redirect"; location: string }> {
  if (response.status === 304) {
    await response.body?.cancel();
    return { status: "not_modified", validators: validatorsOf(response, previous) };
  }
  if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
    await response.body?.cancel();
    return { status: "redirect", location: response.headers.get("location")! };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { status: "error", error: `${response.status} ${response.statusText}`.trim() };
  }
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (type && !/^text\/|json|xml/.test(type)) {
    await response.body?.cancel();
    return { status: "error", error: `${type.split(";")[0]} is not a web page` };
  }
  const body = await readText(response, type);
  const text = await pageText(body, type, selector, limits);
  if (typeof text !== "string") {
    // The check's deadline hit while its HTML was parsed: that, not a bare "cancelled".
    const late = limits.signal.aborted && !limits.cancelled?.aborted;
    const seconds = Math.round(limits.timeoutMs / 1000);
    return {
      status: "error",
      error: late ? `timed out after ${seconds} s reading its HTML (stopped)` : text.error,
    };
  }
  return {
    status: "ok",
    text: text.slice(0, maxPageChars),
    validators: validatorsOf(response, {}),
  };
}

function validatorsOf(response: Response, previous: Validators): Validators {
  return {
    etag: response.headers.get("etag") ?? previous.etag,
    lastModified: response.headers.get("last-modified") ?? previous.lastModified,
  };
}

async function readText(response: Response, type: string): Promise<string> {
  const { bytes } = await readCapped(response, maxBodyBytes);
  const charset = /charset=([\w-]+)/.exec(type)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/** The readable text of a page body, or of the elements `selector` matches. */
export async function pageText(
  body: string,
  type: string,
  selector: string,
  limits: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string | { error: string }> {
  const html = type.includes("html") || (!type && /<html|<body|<p\b/i.test(body));
  if (!selector) return normalise(html ? htmlToText(body).text : body);
  if (!html && type) return { error: `a selector needs an HTML page, not ${type.split(";")[0]}` };
  const parts = await selectHtml(body, selector, limits);
  if ("error" in parts) return parts;
  if (!parts.html.length) return { error: `the selector ${selector} matched nothing` };
  return normalise(parts.html.map((part) => htmlToText(part).text).join("\n"));
}

/**
 * The outer HTML of every element `selector` matches, read in the HTML query child (bounded by
 * `limits`); a refused selector or a page that cannot be read in time is one error line.
 */
export async function selectHtml(
  body: string,
  selector: string,
  limits: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<{ html: string[] } | { error: string }> {
  const answer = await queryHtml(body, [{ select: selector, fields: { html: { read: "html" } } }], {
    signal: limits.signal,
    timeoutMs: limits.timeoutMs,
  });
  if (answer.status !== "ok") return { error: answer.message };
  return { html: answer.matches[0]?.map((match) => match.html ?? "") ?? [] };
}

function normalise(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[ \t]+\n/g, "\n").replace(/\n{2,}/g, "\n").trim();
}
