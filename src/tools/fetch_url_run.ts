/** `fetch_url`'s run (src/tools/fetch_url.ts), loaded with the tool's first call. */
import {
  failed,
  refused,
  timedOut,
  type ToolContext,
  type ToolOutput,
  type ToolResult,
} from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { isPrivateAddress } from "../adapters/network/address_policy.ts";
import { htmlToText } from "../adapters/network/html_to_text.ts";
import { checkUrlAddresses, type Resolver } from "../adapters/network/network_guard.ts";
import {
  createPinnedFetch,
  fetchFromChecked,
  type PinnedFetch,
  type PinnedResponse,
} from "../adapters/network/pinned_fetch.ts";
import { readCapped } from "../adapters/network/bounded_read.ts";
import { firstLine } from "../core/errors.ts";

const maxRedirects = 5;
const maxBodyBytes = 3 * 1024 * 1024;

/**
 * fetch_url's run. Each hop resolves the host once, checks every address, and connects to a
 * checked one (`pinned`, else a pinned fetch over `deps.fetch`).
 */
export function fetchUrlRun(
  deps: Pick<ToolDependencies, "config" | "fetch">,
  resolve: Resolver,
  pinnedFetch?: PinnedFetch,
): (args: { url: string }, context: ToolContext) => Promise<ToolOutput> {
  const settings = deps.config.tools.fetch_url;
  const pinned = pinnedFetch ?? createPinnedFetch(deps.fetch);
  return async ({ url: text }, context) => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return failed(`Not a valid URL: ${text.slice(0, 200)}`);
    }
    const signal = AbortSignal.any([
      context.signal,
      AbortSignal.timeout(settings.timeout_seconds * 1000),
    ]);
    // A page from a private address (a router, an intranet: allow_private) is the user's own.
    let privateHop = false;
    // Where this call may send: its own origin, and the others the run allows it (a redirect).
    const reachable = new Set([url.origin]);
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const shown = url.href;
      const check = await checkUrlAddresses(url, {
        allowPrivate: settings.allow_private,
        resolve,
      });
      if (check.problem !== undefined) return refused(`Cannot fetch ${shown}: ${check.problem}.`);
      privateHop ||= check.addresses.some((address) => isPrivateAddress(address));
      let opened: PinnedResponse;
      try {
        opened = await fetchFromChecked(url, check.addresses, {
          redirect: "manual",
          signal,
          headers: {
            "User-Agent": "Radar/0.1 (personal assistant)",
            Accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5",
          },
        }, { fetch: deps.fetch, pinned });
      } catch (error) {
        const reason = signal.aborted
          ? `timed out after ${settings.timeout_seconds} s (tools.fetch_url.timeout_seconds)`
          : firstLine(error);
        return failed(`Cannot fetch ${shown}: ${reason}`);
      }
      const { response } = opened;
      try {
        const next = await followOrRead(response);
        if (next instanceof URL) {
          const refusal = redirectRefusal(url, next, reachable, context);
          if (refusal) return refusal;
          url = next;
          continue;
        }
        return typeof next === "string"
          ? { text: next, outcome: "ok", label: privateHop ? "private" : "public" }
          : next;
      } finally {
        opened.close();
      }
    }
    return failed(
      `Cannot fetch ${text}: more than ${maxRedirects} redirects.`,
    );

    /** The redirect's target, or the page read from the response (or why it cannot be). */
    async function followOrRead(response: Response): Promise<URL | string | ToolResult> {
      const shown = url.href;
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        try {
          return new URL(response.headers.get("location")!, url);
        } catch {
          return failed(`Cannot fetch ${shown}: it redirects to an invalid URL.`);
        }
      }
      try {
        return await readPage(response, shown, settings.max_chars);
      } catch (error) {
        if (!signal.aborted) {
          return failed(`Cannot read ${shown}: ${firstLine(error)}`);
        }
        const cause = context.signal.aborted
          ? "cancelled"
          : `timed out after ${settings.timeout_seconds} s while reading the page (tools.fetch_url.timeout_seconds)`;
        return timedOut(`Cannot fetch ${shown}: ${cause}.`);
      }
    }
  };
}

/**
 * Why a redirect to another origin is not followed: a request there is a send there, and the run
 * read private data that no grant lets go there (`ToolContext.mayAlsoSendTo`). Undefined: follow.
 */
function redirectRefusal(
  from: URL,
  to: URL,
  reachable: Set<string>,
  context: ToolContext,
): ToolResult | undefined {
  if (reachable.has(to.origin)) return undefined;
  if (!context.mayAlsoSendTo || context.mayAlsoSendTo([to.origin])) {
    reachable.add(to.origin);
    return undefined;
  }
  return refused(
    `Not followed: ${from.href} redirects to ${to.origin}, another site, and this run read ` +
      "private data that no grant lets go there. If that page is needed, fetch its address " +
      `(${to.href}); the user will be asked.`,
  );
}

async function readPage(
  response: Response,
  shown: string,
  maxChars: number,
): Promise<string | ToolResult> {
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const { bytes, cut } = await readCapped(response, maxBodyBytes);
  if (!response.ok) {
    return failed(`Cannot fetch ${shown}: ${response.status} ${response.statusText}`.trim());
  }
  const size = `${bytes.length}${cut ? "+" : ""} bytes`;
  const textual = type === "" || /^text\/|json|xml|javascript/.test(type);
  if (type.includes("application/pdf") || startsWithPdf(bytes)) {
    return failed(
      `${shown} is a PDF (${size}), not a web page: save it (exec: curl -o file.pdf URL) and use pdf_extract.`,
    );
  }
  if (!textual) return failed(`${shown} is ${type.split(";")[0]} (${size}), not a web page.`);
  if (bytes.subarray(0, 8192).includes(0)) {
    return failed(`${shown} is binary data (${size}), not a web page.`);
  }
  const charset = /charset=([\w-]+)/.exec(type)?.[1] ?? "utf-8";
  let body: string;
  try {
    body = new TextDecoder(charset).decode(bytes);
  } catch {
    body = new TextDecoder().decode(bytes);
  }
  let title = "";
  let text = body;
  if (type.includes("html") || (!type && /<html|<body|<p\b/i.test(body))) {
    ({ title, text } = htmlToText(body));
  }
  const lines = [shown];
  if (title) lines.push(`Title: ${title}`);
  lines.push("");
  const total = text.length;
  lines.push(total > maxChars ? text.slice(0, maxChars) : text);
  if (total > maxChars || cut) {
    lines.push(
      `[cut: ${
        total > maxChars ? total - maxChars : "more"
      } characters not shown (tools.fetch_url.max_chars)]`,
    );
  }
  return lines.join("\n");
}

function startsWithPdf(bytes: Uint8Array): boolean {
  return new TextDecoder("latin1").decode(bytes.subarray(0, 5)) === "%PDF-";
}
