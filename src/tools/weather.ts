/**
 * `weather`: current conditions and a short daily forecast for a place, from Open-Meteo (no key).
 * Both requests go through the network guard (the public endpoints must resolve publicly; URLs the
 * user configured may be private) with a size cap; the answer is untrusted data, checked field by
 * field.
 */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool, runOnFirstCall } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { weatherOrigins } from "./destinations.ts";
import { denoResolver, type Resolver } from "../adapters/network/network_guard.ts";
import type { PinnedFetch } from "../adapters/network/pinned_fetch.ts";

/** The tool's run, loaded with its first call (a run that never asks loads none of it). */
function weatherModule(): Promise<typeof import("./weather_run.ts")> {
  return import(new URL("./weather_run.ts", import.meta.url).href);
}

/** weather's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const weatherInput = lazyValue(() =>
  z.object({
    location: z.string().min(1).max(200),
    days: z.number().int().min(1).max(7).optional(),
  })
);

/** Creates the weather tool; `resolve` and `pinned` are injectable for tests. */
export function weatherTool(
  deps: Pick<ToolDependencies, "config" | "fetch">,
  resolve: Resolver = denoResolver,
  pinned?: PinnedFetch,
): Tool {
  return defineTool({
    name: "weather",
    // The place asked about goes to the weather service.
    effect: "sends_out",
    destinations: () => weatherOrigins(deps.config),
    results: "public",
    description: "Weather forecast",
    keywords: ["weather", "forecast", "rain", "temperature", "snow", "wind", "sunny", "umbrella"],
    parameters: toolParameters.weather,
    input: weatherInput,
    run: runOnFirstCall(async () => (await weatherModule()).weatherRun(deps, resolve, pinned)),
  });
}
