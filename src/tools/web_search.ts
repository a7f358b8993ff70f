/**
 * `web_search`: DuckDuckGo's HTML endpoint by default (no key), or SearXNG (self-hosted JSON API)
 * or the Brave Search API when configured. Every request goes through the network guard (a
 * built-in endpoint must resolve to a public address; a URL the user configured may be private)
 * and the answer is read under a size cap. Results are untrusted web text.
 */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool, runOnFirstCall } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { searchOrigin } from "./destinations.ts";
import { denoResolver, type Resolver } from "../adapters/network/network_guard.ts";
import type { PinnedFetch } from "../adapters/network/pinned_fetch.ts";

/** The tool's run, loaded with its first call (a run that never searches loads none of it). */
function webSearchModule(): Promise<typeof import("./web_search_run.ts")> {
  return import(new URL("./web_search_run.ts", import.meta.url).href);
}

/** web_search's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const webSearchInput = lazyValue(() =>
  z.object({
    query: z.string().min(1).max(400),
  })
);

/**
 * Creates the web_search tool; `resolve`, `pinned` and the deadline of reading DuckDuckGo's page
 * (`pageTimeoutMs`) are injectable for tests.
 */
export function webSearchTool(
  deps: Pick<ToolDependencies, "config" | "fetch" | "env" | "secrets">,
  resolve: Resolver = denoResolver,
  pinned?: PinnedFetch,
  pageTimeoutMs?: number,
): Tool {
  return defineTool({
    name: "web_search",
    // The query goes to the search service.
    effect: "sends_out",
    destinations: () => searchOrigin(deps.config),
    results: "public",
    description: "Search the web",
    keywords: ["search", "web", "google", "internet", "look", "find", "news", "online"],
    parameters: toolParameters.web_search,
    input: webSearchInput,
    run: runOnFirstCall(async () =>
      (await webSearchModule()).webSearchRun(deps, resolve, pinned, pageTimeoutMs)
    ),
  });
}
