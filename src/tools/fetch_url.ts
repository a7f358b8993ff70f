/** `fetch_url`: GET a web page and return its readable text; internal addresses refused. */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool, runOnFirstCall } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { originsOrAnywhere, webResultLabel } from "./destinations.ts";
import { denoResolver, type Resolver } from "../adapters/network/network_guard.ts";
import type { PinnedFetch } from "../adapters/network/pinned_fetch.ts";

/** The tool's run, loaded with its first call (a run that never fetches loads none of it). */
function fetchUrlModule(): Promise<typeof import("./fetch_url_run.ts")> {
  return import(new URL("./fetch_url_run.ts", import.meta.url).href);
}

/** fetch_url's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const fetchUrlInput = lazyValue(() => z.object({ url: z.string().min(1).max(4000) }));

/**
 * Creates the fetch_url tool. Each hop resolves the host once, checks every address, and connects
 * to a checked one (`pinned`, by default over `deps.fetch`); `resolve` and `pinned` are injectable
 * for tests.
 */
export function fetchUrlTool(
  deps: Pick<ToolDependencies, "config" | "fetch">,
  resolve: Resolver = denoResolver,
  pinned?: PinnedFetch,
): Tool {
  const settings = deps.config.tools.fetch_url;
  return defineTool({
    name: "fetch_url",
    // A request carries its URL (and its query) to another machine.
    effect: "sends_out",
    destinations: ({ url }) => originsOrAnywhere(url),
    urlArguments: ["url"],
    results: webResultLabel(settings.allow_private),
    description: "Read a web page",
    keywords: ["fetch", "url", "web", "page", "website", "http", "link", "download", "open"],
    parameters: toolParameters.fetch_url,
    input: fetchUrlInput,
    run: runOnFirstCall(async () => (await fetchUrlModule()).fetchUrlRun(deps, resolve, pinned)),
  });
}
