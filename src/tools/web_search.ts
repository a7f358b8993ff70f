/** `web_search`: search through SearXNG (self-hosted JSON API) or the Brave Search API. */
import { z } from "zod";
import { redactText } from "../core/redact.ts";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { configSecrets } from "../config/secrets.ts";
import { decodeEntities } from "./web/html_to_text.ts";

interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Creates the web_search tool. */
export function webSearchTool(deps: Pick<ToolDependencies, "config" | "fetch" | "env">): Tool {
  const settings = deps.config.tools.web_search;
  let cachedKey: string | undefined;
  const apiKey = async (): Promise<string> => {
    if (settings.api_key) return settings.api_key;
    if (!settings.api_key_cmd) return "";
    cachedKey ??= await runKeyCommand(settings.api_key_cmd, deps.env);
    return cachedKey;
  };
  return defineTool({
    name: "web_search",
    description: "Search the web; returns titles, URLs, snippets",
    keywords: ["search", "web", "google", "internet", "look", "find", "news", "online"],
    input: z.object({
      query: z.string().min(1).max(400),
      count: z.number().int().min(1).max(20).optional(),
    }),
    run: async ({ query, count }, context) => {
      const limit = count ?? settings.max_results;
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(20_000)]);
      if (!settings.provider) {
        return failed(
          "Web search is not configured: set tools.web_search.provider (searxng or brave) in radar.yaml.",
        );
      }
      let key = "";
      let request: { url: string; headers: Record<string, string> };
      if (settings.provider === "searxng") {
        if (!settings.url) {
          return failed(
            "Web search is not configured: set tools.web_search.url to your SearXNG address.",
          );
        }
        const url = new URL("search", settings.url.replace(/\/*$/, "/"));
        url.search = new URLSearchParams({ q: query, format: "json" }).toString();
        request = { url: url.href, headers: { Accept: "application/json" } };
      } else {
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
        request = {
          url: url.href,
          headers: { Accept: "application/json", "X-Subscription-Token": key },
        };
      }
      const secrets = [...configSecrets(deps.config), ...(key ? [key] : [])];
      let response: Response;
      try {
        response = await deps.fetch(request.url, { headers: request.headers, signal });
      } catch (error) {
        const reason = signal.aborted ? "timed out" : (error as Error).message.split("\n")[0];
        return failed(redactText(`Cannot reach ${settings.provider}: ${reason}`, secrets));
      }
      if (!response.ok) {
        const body = (await response.text().catch(() => "")).slice(0, 200).replace(/\s+/g, " ");
        const hint = response.status === 401 || response.status === 403
          ? " (check the API key)"
          : "";
        return failed(
          redactText(`${settings.provider} answered ${response.status}${hint}: ${body}`, secrets),
        );
      }
      let json: unknown;
      try {
        json = await response.json();
      } catch {
        return failed(`${settings.provider} did not answer with JSON (is format=json enabled?).`);
      }
      const results = settings.provider === "searxng" ? searxngResults(json) : braveResults(json);
      if (!results.length) return `No results for "${query}".`;
      return redactText(formatResults(results.slice(0, limit)), secrets);
    },
  });
}

function searxngResults(json: unknown): SearchResult[] {
  const results = (json as { results?: unknown[] })?.results;
  return Array.isArray(results) ? results.map((item) => toResult(item, "content")) : [];
}

function braveResults(json: unknown): SearchResult[] {
  const results = (json as { web?: { results?: unknown[] } })?.web?.results;
  return Array.isArray(results) ? results.map((item) => toResult(item, "description")) : [];
}

function toResult(item: unknown, snippetKey: string): SearchResult {
  const record = (item ?? {}) as Record<string, unknown>;
  const clean = (value: unknown, max: number) =>
    decodeEntities(String(value ?? "").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim()
      .slice(0, max);
  return {
    title: clean(record.title, 200),
    url: clean(record.url, 500),
    snippet: clean(record[snippetKey], 300),
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
