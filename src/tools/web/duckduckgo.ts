/**
 * DuckDuckGo's HTML endpoint (no key, no account): the request URL and a reader for its result
 * page. The page is hostile input: only the result links and snippets are taken, ads are skipped,
 * DuckDuckGo's redirect links are unwrapped to the target URL and only http(s) targets are kept.
 */
import { cleanResult, type SearchResult } from "./search_results.ts";

/** The public endpoint. */
export const duckDuckGoBase = "https://html.duckduckgo.com";

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

/** Reads a result page. */
export async function duckDuckGoResults(html: string): Promise<DuckDuckGoPage> {
  // Imported on the first search, not when Radar starts.
  const { parse } = await import("node-html-parser");
  const root = parse(html, { blockTextElements: { script: false, style: false } });
  const challenged = !!root.querySelector(".anomaly-modal, #challenge-form") ||
    /bots use DuckDuckGo too/i.test(html);
  const results: SearchResult[] = [];
  for (const block of root.querySelectorAll(".result")) {
    if (block.classList.contains("result--ad")) continue;
    const link = block.querySelector("a.result__a");
    const url = targetOf(link?.getAttribute("href") ?? "");
    if (!link || !url) continue;
    results.push(cleanResult({
      title: link.text,
      url,
      snippet: block.querySelector(".result__snippet")?.text ?? "",
    }));
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
