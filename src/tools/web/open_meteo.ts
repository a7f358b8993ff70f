/**
 * Open-Meteo (no key): geocoding a place name, a compact current + daily forecast, and the WMO
 * weather codes in words. Answers are untrusted JSON: every field is checked and bounded.
 */
import { oneLine } from "../../adapters/network/guarded_get.ts";

/** A place with coordinates. */
export interface Place {
  name: string;
  latitude: number;
  longitude: number;
}

/** Unit system of the answer. */
export type Units = "metric" | "imperial";

/** The geocoding URL for `name`. */
export function geocodingUrl(base: string, name: string): URL {
  const url = new URL("v1/search", base.replace(/\/*$/, "/"));
  url.search = new URLSearchParams({ name, count: "1", language: "en", format: "json" })
    .toString();
  return url;
}

/** The first place of a geocoding answer, named "Paris, Île-de-France, France"; or undefined. */
export function placeOf(json: unknown): Place | undefined {
  const first = (json as { results?: unknown[] })?.results?.[0] as
    | Record<string, unknown>
    | undefined;
  if (!first || !isCoordinate(first.latitude, 90) || !isCoordinate(first.longitude, 180)) {
    return undefined;
  }
  const parts = [first.name, first.admin1, first.country]
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .map((part) => oneLine(part, 80));
  return {
    name: [...new Set(parts)].join(", ") || "unnamed place",
    latitude: first.latitude as number,
    longitude: first.longitude as number,
  };
}

/** `48.85,2.35` typed as a location: a place without geocoding. */
export function coordinatesIn(text: string): Place | undefined {
  const match = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return undefined;
  const [latitude, longitude] = [Number(match[1]), Number(match[2])];
  if (!isCoordinate(latitude, 90) || !isCoordinate(longitude, 180)) return undefined;
  return { name: `${latitude}, ${longitude}`, latitude, longitude };
}

const currentFields = [
  "temperature_2m",
  "apparent_temperature",
  "relative_humidity_2m",
  "precipitation",
  "weather_code",
  "wind_speed_10m",
];
const dailyFields = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "precipitation_sum",
  "precipitation_probability_max",
];

/** The forecast URL for a place, `days` days, in `units`. */
export function forecastUrl(base: string, place: Place, days: number, units: Units): URL {
  const url = new URL("v1/forecast", base.replace(/\/*$/, "/"));
  const params = new URLSearchParams({
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    current: currentFields.join(","),
    daily: dailyFields.join(","),
    timezone: "auto",
    forecast_days: String(days),
  });
  if (units === "imperial") {
    params.set("temperature_unit", "fahrenheit");
    params.set("wind_speed_unit", "mph");
    params.set("precipitation_unit", "inch");
  }
  url.search = params.toString();
  return url;
}

/** The forecast as a few short lines; undefined when the answer has no usable data. */
export function describeForecast(json: unknown, place: Place, units: Units): string | undefined {
  const body = (json ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const degree = units === "imperial" ? "°F" : "°C";
  const rain = units === "imperial" ? "in" : "mm";
  const wind = units === "imperial" ? "mph" : "km/h";
  const lines = [`${place.name} (${place.latitude.toFixed(2)}, ${place.longitude.toFixed(2)})`];
  const now = body.current;
  if (now && isNumber(now.temperature_2m)) {
    const parts = [
      `${now.temperature_2m} ${degree}`,
      isNumber(now.apparent_temperature) ? `feels ${now.apparent_temperature} ${degree}` : "",
    ].filter(Boolean);
    lines.push(
      `Now: ${parts[0]}${parts[1] ? ` (${parts[1]})` : ""}, ${weatherCodeText(now.weather_code)}` +
        (isNumber(now.wind_speed_10m) ? `, wind ${now.wind_speed_10m} ${wind}` : "") +
        (isNumber(now.relative_humidity_2m) ? `, humidity ${now.relative_humidity_2m} %` : ""),
    );
  }
  const daily = body.daily;
  const days = Array.isArray(daily?.time) ? (daily.time as unknown[]).slice(0, 16) : [];
  days.forEach((day, index) => {
    const at = (field: string) => (daily?.[field] as unknown[] | undefined)?.[index];
    const low = at("temperature_2m_min");
    const high = at("temperature_2m_max");
    const sum = at("precipitation_sum");
    const chance = at("precipitation_probability_max");
    lines.push(
      `${oneLine(String(day), 10)}: ${weatherCodeText(at("weather_code"))}` +
        (isNumber(low) && isNumber(high) ? `, ${low} to ${high} ${degree}` : "") +
        (isNumber(sum) ? `, precipitation ${sum} ${rain}` : "") +
        (isNumber(chance) ? ` (${chance} % chance)` : ""),
    );
  });
  return lines.length > 1 ? lines.join("\n") : undefined;
}

const weatherCodes: Record<number, string> = {
  0: "clear sky",
  1: "mainly clear",
  2: "partly cloudy",
  3: "overcast",
  45: "fog",
  48: "freezing fog",
  51: "light drizzle",
  53: "drizzle",
  55: "heavy drizzle",
  56: "freezing drizzle",
  57: "heavy freezing drizzle",
  61: "light rain",
  63: "rain",
  65: "heavy rain",
  66: "freezing rain",
  67: "heavy freezing rain",
  71: "light snow",
  73: "snow",
  75: "heavy snow",
  77: "snow grains",
  80: "light rain showers",
  81: "rain showers",
  82: "violent rain showers",
  85: "snow showers",
  86: "heavy snow showers",
  95: "thunderstorm",
  96: "thunderstorm with hail",
  99: "thunderstorm with heavy hail",
};

/** A WMO weather code in words. */
export function weatherCodeText(code: unknown): string {
  return (typeof code === "number" && weatherCodes[code]) || "unknown conditions";
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isCoordinate(value: unknown, limit: number): boolean {
  return isNumber(value) && Math.abs(value) <= limit;
}
