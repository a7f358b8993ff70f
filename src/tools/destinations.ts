/**
 * Where the built-in tools that send data off the machine send it, from the config: the services
 * they talk to as exact origins (see `src/away/origins.ts`), so a run that read private data needs
 * a grant naming exactly that origin. A service the config does not name a URL for is its public
 * default (DuckDuckGo, Open-Meteo, ComicVine, Open Library).
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Destinations, ResultLabel } from "../core/tool.ts";
import { originOf } from "../core/origins.ts";
import { comicVineDefaultBase, openLibraryDefaultBase } from "../library/lookup_services.ts";

/** DuckDuckGo's public HTML endpoint (web_search's default). */
export const duckDuckGoBase = "https://html.duckduckgo.com";

/** Open-Meteo's public endpoints (weather's defaults). */
export const openMeteoDefaults = {
  geocoding: "https://geocoding-api.open-meteo.com",
  forecast: "https://api.open-meteo.com",
};

/** The origins of these URLs, or anywhere when one is not a URL. */
export function originsOrAnywhere(...urls: string[]): Destinations {
  const origins = urls.map(originOf);
  return origins.every((origin) => origin !== undefined)
    ? [...new Set(origins)] as string[]
    : "anywhere";
}

/** The search service web_search asks. */
export function searchOrigin(config: RadarConfig): Destinations {
  const { provider, url } = config.tools.web_search;
  if (url) return originsOrAnywhere(url);
  return originsOrAnywhere(provider === "brave" ? "https://api.search.brave.com" : duckDuckGoBase);
}

/** The services weather asks (place names to the geocoder, coordinates to the forecast). */
export function weatherOrigins(config: RadarConfig): Destinations {
  const { geocoding_url, forecast_url } = config.tools.weather;
  return originsOrAnywhere(
    geocoding_url || openMeteoDefaults.geocoding,
    forecast_url || openMeteoDefaults.forecast,
  );
}

/** The lookup services comic_info asks when it reads (none when none is configured). */
export function lookupOrigins(config: RadarConfig): string[] {
  const { comicvine, open_library } = config.library;
  const urls = [
    ...(comicvine.api_key ? [comicvine.base_url || comicVineDefaultBase] : []),
    ...(open_library.enabled ? [open_library.base_url || openLibraryDefaultBase] : []),
  ];
  const origins = originsOrAnywhere(...urls);
  return origins === "anywhere" ? urls : [...origins];
}

/** The IMAP server of a mail account (`imaps://host:port`, `imap://…` for starttls and none). */
export function mailOrigin(config: RadarConfig, account: string): Destinations {
  const entry = config.email.accounts.find((candidate) => candidate.name === account);
  if (!entry) return "anywhere";
  const scheme = entry.tls === "implicit" ? "imaps" : "imap";
  const host = entry.host.includes(":") ? `[${entry.host}]` : entry.host;
  return originsOrAnywhere(`${scheme}://${host}:${entry.port}`);
}

/** The CalDAV servers an added event may go to (the named calendar, else every writable one). */
export function calendarOrigins(config: RadarConfig, name?: string): Destinations {
  const writable = config.calendar.calendars.filter((entry) => entry.caldav_url);
  const chosen = name ? writable.filter((entry) => entry.name === name) : writable;
  return chosen.length ? originsOrAnywhere(...chosen.map((entry) => entry.caldav_url)) : [];
}

/**
 * The label of what a fetch returns: the web is public; with private addresses allowed (a
 * router, an intranet, `allowed_hosts`) a page may be the user's own, so private.
 */
export function webResultLabel(privateAllowed: boolean): ResultLabel {
  return privateAllowed ? "private" : "public";
}
