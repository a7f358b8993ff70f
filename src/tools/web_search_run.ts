/** `web_search`'s run (src/tools/web_search.ts), loaded with the tool's first call. */
import { failed, type ToolContext, type ToolOutput, type ToolResult } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { duckDuckGoResults, duckDuckGoUrl } from "./web/duckduckgo.ts";
import { duckDuckGoBase } from "./destinations.ts";
import { guardedGet, WebRequestError } from "../adapters/network/guarded_get.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import { createPinnedFetch, type PinnedFetch } from "../adapters/network/pinned_fetch.ts";
import { defaultHtmlQueryTimeoutMs } from "../adapters/network/html_query.ts";
import {
  braveResults,
  formatResults,
  type SearchResult,
  searxngResults,
} from "./web/search_results.ts";

/** The most a search answer may weigh. */
const maxAnswerBytes = 2 * 1024 * 1024;

/** One provider request, and how to read its body. */
interface SearchRequest {
  url: URL;
  headers: Record<string, string>;
  service: string;
  read: (
    text: string,
    signal: AbortSignal,
  ) => SearchResult[] | ToolResult | Promise<SearchResult[] | ToolResult>;
}

/**
 * web_search's run: one request to the provider through the network guard (`resolve`, `pinned`,
 * else a pinned fetch over `deps.fetch`), DuckDuckGo's page read within `pageTimeoutMs`.
 */
export function webSearchRun(
  deps: Pick<ToolDependencies, "config" | "fetch" | "env" | "secrets">,
  resolve: Resolver,
  pinnedFetch?: PinnedFetch,
  pageTimeoutMs = defaultHtmlQueryTimeoutMs,
): (args: { query: string }, context: ToolContext) => Promise<ToolOutput> {
  const pinned = pinnedFetch ?? createPinnedFetch(deps.fetch);
  const settings = deps.config.tools.web_search;
  const provider = settings.provider || "duckduckgo";
  let cachedKey: string | undefined;
  const apiKey = async (): Promise<string> => {
    if (settings.api_key) return settings.api_key;
    if (!settings.api_key_cmd) return "";
    if (cachedKey === undefined) {
      cachedKey = await runKeyCommand(settings.api_key_cmd, deps.env);
      deps.secrets.learn(cachedKey); // masked wherever it shows from now on
    }
    return cachedKey;
  };
  /** The request for `query`, or why there is none. */
  const requestFor = async (query: string, limit: number): Promise<SearchRequest | ToolResult> => {
    if (provider === "searxng") {
      if (!settings.url) {
        return failed(
          "Web search is not configured: set tools.web_search.url to your SearXNG address.",
        );
      }
      const url = new URL("search", settings.url.replace(/\/*$/, "/"));
      url.search = new URLSearchParams({ q: query, format: "json" }).toString();
      return {
        url,
        headers: { Accept: "application/json" },
        service: "searxng",
        read: json(searxngResults, "searxng"),
      };
    }
    if (provider === "brave") {
      let key: string;
      try {
        key = await apiKey();
      } catch (error) {
        return failed(
          `Cannot get the Brave API key from tools.web_search.api_key_cmd: ${
            (error as Error).message
          }`,
        );
      }
      if (!key) {
        return failed(
          "Web search is not configured: set tools.web_search.api_key or api_key_cmd for Brave.",
        );
      }
      const base = settings.url || "https://api.search.brave.com";
      const url = new URL("res/v1/web/search", base.replace(/\/*$/, "/"));
      url.search = new URLSearchParams({ q: query, count: String(limit) }).toString();
      return {
        url,
        headers: { Accept: "application/json", "X-Subscription-Token": key },
        service: "brave",
        read: json(braveResults, "brave"),
      };
    }
    return {
      url: duckDuckGoUrl(settings.url || duckDuckGoBase, query),
      headers: {
        Accept: "text/html",
        "User-Agent": "Mozilla/5.0 (compatible; Radar/0.1; personal assistant)",
      },
      service: "DuckDuckGo",
      read: async (text, signal) => {
        const page = await duckDuckGoResults(text, { signal, timeoutMs: pageTimeoutMs });
        if ("error" in page) return failed(`Cannot read DuckDuckGo's answer: ${page.error}.`);
        if (!page.results.length && page.challenged) {
          return failed(
            "DuckDuckGo answered with a bot check instead of results. Try again later, or set " +
              "tools.web_search.provider to searxng or brave.",
          );
        }
        return page.results;
      },
    };
  };
  // No `count` parameter: tools.web_search.max_results decides (it cost 8 tokens a request).
  return async ({ query }, context) => {
    const limit = settings.max_results;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(20_000)]);
    const request = await requestFor(query, limit);
    if (!("url" in request)) return request;
    let answer;
    try {
      answer = await guardedGet(request.url, {
        fetch: deps.fetch,
        resolve,
        pinned,
        allowPrivate: settings.url !== "",
        maxBytes: maxAnswerBytes,
        signal,
        headers: request.headers,
        service: request.service,
      });
    } catch (error) {
      if (!(error instanceof WebRequestError)) throw error;
      return failed(error.message);
    }
    if (answer.status < 200 || answer.status > 299) {
      const body = answer.text.slice(0, 200).replace(/\s+/g, " ");
      const hint = answer.status === 401 || answer.status === 403 ? " (check the API key)" : "";
      return failed(`${request.service} answered ${answer.status}${hint}: ${body}`);
    }
    const results = await request.read(answer.text, signal);
    if (!Array.isArray(results)) return results;
    if (!results.length) return `No results for "${query}".`;
    return formatResults(results.slice(0, limit));
  };
}

/** A reader for a JSON provider's body. */
function json(
  read: (json: unknown) => SearchResult[],
  service: string,
): (text: string) => SearchResult[] | ToolResult {
  return (text) => {
    try {
      return read(JSON.parse(text));
    } catch {
      return failed(`${service} did not answer with JSON (is format=json enabled?).`);
    }
  };
}

async function runKeyCommand(
  command: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const output = await new Deno.Command("/bin/sh", {
    args: ["-c", command],
    env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(15_000),
  }).output();
  if (!output.success) {
    const stderr = new TextDecoder().decode(output.stderr).trim().split("\n")[0] ?? "";
    throw new Error(`exit code ${output.code}${stderr ? ` (${stderr.slice(0, 200)})` : ""}`);
  }
  return new TextDecoder().decode(output.stdout).split("\n")[0].trim();
}
