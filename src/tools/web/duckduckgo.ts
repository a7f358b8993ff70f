/**
 * DuckDuckGo's HTML endpoint (no key, no account): the request URL and a reader for its result
 * page. The page is hostile input: only the result links and snippets are taken, ads are skipped,
 * DuckDuckGo's redirect links are unwrapped to the target URL and only http(s) targets are kept.
 */
import { cleanResult, type SearchResult } from "./search_results.ts";
import { type HtmlQueryOptions, queryHtml } from "../../adapters/network/html_query.ts";

/** The search URL for `query` on `base` (the public endpoint or a configured one). */
export function duckDuckGoUrl(base: string, query: string): URL {
  const url = new URL("html/", base.replace(/\/*$/, "/"));
  url.search = new URLSearchParams({ q: query }).toString();
  return url;
}

/** What a result page held: results, or the sign that DuckDuckGo wants a human (a challenge). */
export interface DuckDuckGoPage {
  results: SearchResult[];
  challenged: boolean;
}

/**
 * Reads a result page (parsed in the HTML query child, bounded by `limits`); a page that cannot
 * be read is one error line.
 */
export async function duckDuckGoResults(
  html: string,
  limits: HtmlQueryOptions = {},
): Promise<DuckDuckGoPage | { error: string }> {
  const link = "a.result__a";
  const answer = await queryHtml(html, [
    { select: ".anomaly-modal, #challenge-form", fields: {}, limit: 1 },
    {
      select: ".result",
      fields: {
        class: { read: { attribute: "class" } },
        title: { within: link, read: "text" },
        href: { within: link, read: { attribute: "href" } },
        snippet: { within: ".result__snippet", read: "text" },
      },
    },
  ], limits);
  if (answer.status !== "ok") return { error: answer.message };
  const [challenges = [], blocks = []] = answer.matches;
  const challenged = challenges.length > 0 || /bots use DuckDuckGo too/i.test(html);
  const results: SearchResult[] = [];
  for (const block of blocks) {
    if ((block.class ?? "").split(/\s+/).includes("result--ad")) continue;
    const url = targetOf(block.href ?? "");
    if (block.title === null || block.title === undefined || !url) continue;
    results.push(cleanResult({ title: block.title, url, snippet: block.snippet ?? "" }));
  }
  return { results, challenged };
}

/** The real target of a result link (`//duckduckgo.com/l/?uddg=<target>&rut=…` or direct). */
function targetOf(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.replace(/&amp;/g, "&"), "https://duckduckgo.com/");
  } catch {
    return undefined;
  }
  const wrapped = url.pathname === "/l/" ? url.searchParams.get("uddg") : null;
  if (wrapped) {
    try {
      url = new URL(wrapped);
    } catch {
      return undefined;
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (/(^|\.)duckduckgo\.com$/.test(url.hostname) && url.pathname === "/y.js") return undefined;
  return url.href;
}
