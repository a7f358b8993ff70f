/** Search results: the shape every provider is read into, and the JSON providers' readers. */
import { decodeEntities } from "../../adapters/network/html_to_text.ts";
import { oneLine } from "../../adapters/network/guarded_get.ts";

/** One hit. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Results of a SearXNG `format=json` answer. */
export function searxngResults(json: unknown): SearchResult[] {
  const results = (json as { results?: unknown[] })?.results;
  return Array.isArray(results) ? results.map((item) => jsonResult(item, "content")) : [];
}

/** Results of a Brave Search API answer. */
export function braveResults(json: unknown): SearchResult[] {
  const results = (json as { web?: { results?: unknown[] } })?.web?.results;
  return Array.isArray(results) ? results.map((item) => jsonResult(item, "description")) : [];
}

function jsonResult(item: unknown, snippetKey: string): SearchResult {
  const record = (item ?? {}) as Record<string, unknown>;
  const clean = (value: unknown) =>
    decodeEntities(String(value ?? "").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ");
  return cleanResult({
    title: clean(record.title),
    url: clean(record.url),
    snippet: clean(record[snippetKey]),
  });
}

/** Trims, collapses white space and bounds each field (a hostile page cannot flood the prompt). */
export function cleanResult(result: SearchResult): SearchResult {
  return {
    title: oneLine(result.title, 200),
    url: oneLine(result.url, 500),
    snippet: oneLine(result.snippet, 300),
  };
}

/** Formats results as a compact numbered list. */
export function formatResults(results: SearchResult[]): string {
  return results.map((result, index) =>
    `${index + 1}. ${result.title || "(untitled)"}\n   ${result.url}${
      result.snippet ? `\n   ${result.snippet}` : ""
    }`
  ).join("\n");
}
