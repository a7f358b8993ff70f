/** `weather`'s run (src/tools/weather.ts), loaded with the tool's first call. */
import { failed, type ToolContext, type ToolOutput, type ToolResult } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import {
  type GuardedAnswer,
  guardedGet,
  WebRequestError,
} from "../adapters/network/guarded_get.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import {
  coordinatesIn,
  describeForecast,
  forecastUrl,
  geocodingUrl,
  placeOf,
} from "./web/open_meteo.ts";
import { openMeteoDefaults } from "./destinations.ts";
import { createPinnedFetch, type PinnedFetch } from "../adapters/network/pinned_fetch.ts";

const maxAnswerBytes = 1024 * 1024;

/**
 * weather's run: Open-Meteo's geocoding and forecast through the network guard (`resolve`,
 * `pinned`, else a pinned fetch over `deps.fetch`).
 */
export function weatherRun(
  deps: Pick<ToolDependencies, "config" | "fetch">,
  resolve: Resolver,
  pinnedFetch?: PinnedFetch,
): (args: { location: string; days?: number }, context: ToolContext) => Promise<ToolOutput> {
  const pinned = pinnedFetch ?? createPinnedFetch(deps.fetch);
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
  return async ({ location, days }, context) => {
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
  };
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
