/**
 * `weather`: current conditions and a short daily forecast for a place, from Open-Meteo (no key).
 * Both requests go through the network guard (the public endpoints must resolve publicly; URLs the
 * user configured may be private) with a size cap; the answer is untrusted data, checked field by
 * field.
 */
import { z } from "zod";
import { failed, type Tool, type ToolResult } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { weatherOrigins } from "./destinations.ts";
import {
  type GuardedAnswer,
  guardedGet,
  WebRequestError,
} from "../adapters/network/guarded_get.ts";
import { denoResolver, type Resolver } from "../adapters/network/network_guard.ts";
import {
  coordinatesIn,
  describeForecast,
  forecastUrl,
  geocodingUrl,
  openMeteoDefaults,
  placeOf,
} from "./web/open_meteo.ts";
import { createPinnedFetch, type PinnedFetch } from "../adapters/network/pinned_fetch.ts";

const maxAnswerBytes = 1024 * 1024;

/** Creates the weather tool; `resolve` and `pinned` are injectable for tests. */
export function weatherTool(
  deps: Pick<ToolDependencies, "config" | "fetch">,
  resolve: Resolver = denoResolver,
  pinned: PinnedFetch = createPinnedFetch(deps.fetch),
): Tool {
  const settings = deps.config.tools.weather;
  const get = async (url: URL, configured: boolean, signal: AbortSignal) => {
    const answer = await guardedGet(url, {
      fetch: deps.fetch,
      resolve,
      pinned,
      allowPrivate: configured,
      maxBytes: maxAnswerBytes,
      signal,
      headers: { Accept: "application/json" },
      service: "Open-Meteo",
    });
    return jsonOf(answer);
  };
  return defineTool({
    name: "weather",
    // The place asked about goes to the weather service.
    effect: "sends_out",
    destinations: () => weatherOrigins(deps.config),
    results: "public",
    description: "Weather forecast",
    keywords: ["weather", "forecast", "rain", "temperature", "snow", "wind", "sunny", "umbrella"],
    input: z.object({
      location: z.string().min(1).max(200),
      days: z.number().int().min(1).max(7).optional(),
    }),
    run: async ({ location, days }, context) => {
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(20_000)]);
      try {
        let place = coordinatesIn(location);
        if (!place) {
          const base = settings.geocoding_url || openMeteoDefaults.geocoding;
          const found = await get(geocodingUrl(base, location), !!settings.geocoding_url, signal);
          if (!("json" in found)) return found;
          place = placeOf(found.json);
          if (!place) return failed(`No place called "${location}" was found.`);
        }
        const base = settings.forecast_url || openMeteoDefaults.forecast;
        const url = forecastUrl(base, place, days ?? 3, settings.units);
        const forecast = await get(url, !!settings.forecast_url, signal);
        if (!("json" in forecast)) return forecast;
        return describeForecast(forecast.json, place, settings.units) ??
          failed("Open-Meteo answered without weather data.");
      } catch (error) {
        if (error instanceof WebRequestError) return failed(error.message);
        throw error;
      }
    },
  });
}

/** The JSON body of a 2xx answer, or a failure naming the status or the bad body. */
function jsonOf(answer: GuardedAnswer): { json: unknown } | ToolResult {
  if (answer.status < 200 || answer.status > 299) {
    let reason = "";
    try {
      reason = String(JSON.parse(answer.text)?.reason ?? "");
    } catch { /* not JSON */ }
    return failed(
      `Open-Meteo answered ${answer.status}${reason ? `: ${reason.slice(0, 200)}` : ""}.`,
    );
  }
  try {
    return { json: JSON.parse(answer.text) };
  } catch {
    return failed("Open-Meteo answered with something that is not JSON.");
  }
}
