/**
 * Metadata lookups for filing: ComicVine for comics (when `library.comicvine.api_key` is set) and
 * Open Library for books and PDFs (`library.open_library.enabled`). Each request goes through the
 * network guard (a configured base URL may be private: a local proxy, a test's fake), is counted
 * against the service's hourly budget, and is read under a size cap; what comes back is untrusted
 * data, checked field by field. Used by comic_info and `radar library scan`.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock } from "../core/ports.ts";
import { denoResolver, type Resolver } from "../adapters/network/network_guard.ts";
import { createPinnedFetch, type PinnedFetch } from "../adapters/network/pinned_fetch.ts";
import { guardedGet, WebRequestError } from "../adapters/network/guarded_get.ts";
import { type ComicVineIssue, comicVineIssues, comicVineSearchUrl } from "./comicvine.ts";
import { type OpenLibraryBook, openLibraryBooks, openLibrarySearchUrl } from "./open_library.ts";
import { comicVineDefaultBase, openLibraryDefaultBase } from "./lookup_services.ts";

/** Found issues or books, or one line saying why not. */
export type LookupAnswer<T> = { found: T[] } | { error: string };

/** The lookups the configuration enables. */
export interface MetadataLookup {
  /** Absent when no ComicVine key is set. */
  comics?: (query: string, signal: AbortSignal) => Promise<LookupAnswer<ComicVineIssue>>;
  /** Absent when Open Library is turned off. */
  books?: (query: string, signal: AbortSignal) => Promise<LookupAnswer<OpenLibraryBook>>;
}

/** What the lookups need. */
export interface MetadataLookupDependencies {
  config: RadarConfig;
  fetch: typeof fetch;
  clock: Clock;
}

const maxAnswerBytes = 2 * 1024 * 1024;
// ComicVine turns away clients without a User-Agent of their own.

/** Builds the enabled lookups; `resolve` and `pinned` are injectable for tests. */
export function createMetadataLookup(
  deps: MetadataLookupDependencies,
  resolve: Resolver = denoResolver,
  pinned: PinnedFetch = createPinnedFetch(deps.fetch),
): MetadataLookup {
  const settings = deps.config.library;
  const getJson = async (url: URL, service: string, configured: boolean, signal: AbortSignal) => {
    const answer = await guardedGet(url, {
      fetch: deps.fetch,
      resolve,
      pinned,
      allowPrivate: configured,
      maxBytes: maxAnswerBytes,
      signal: AbortSignal.any([signal, AbortSignal.timeout(20_000)]),
      headers: {
        Accept: "application/json",
        "User-Agent": "Radar (personal assistant; comic and PDF filing)",
      },
      service,
    });
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      throw new WebRequestError(`${service} answered ${answer.status} with something not JSON.`);
    }
    return { status: answer.status, json };
  };
  /** A lookup within `perHour` requests an hour; a failed request answers its one line. */
  const budgeted = <T>(
    perHour: number,
    usedUp: string,
    look: (query: string, signal: AbortSignal) => Promise<LookupAnswer<T>>,
  ) => {
    const limit = new HourlyLimit(perHour);
    return async (query: string, signal: AbortSignal): Promise<LookupAnswer<T>> => {
      const slot = limit.take(deps.clock.now().getTime());
      if (!slot.ok) return { error: `${usedUp}; next lookup in ${slot.minutes} min.` };
      try {
        return await look(query, signal);
      } catch (error) {
        if (error instanceof WebRequestError) return { error: error.message };
        throw error;
      }
    };
  };
  const lookup: MetadataLookup = {};
  const comicVine = settings.comicvine;
  if (comicVine.api_key) {
    const usedUp = "ComicVine's hourly budget is used up (library.comicvine.requests_per_hour)";
    lookup.comics = budgeted(comicVine.requests_per_hour, usedUp, async (query, signal) => {
      const base = comicVine.base_url || comicVineDefaultBase;
      const url = comicVineSearchUrl(base, comicVine.api_key, query);
      const { json } = await getJson(url, "ComicVine", !!comicVine.base_url, signal);
      const issues = comicVineIssues(json);
      return "error" in issues ? issues : { found: issues.issues };
    });
  }
  const library = settings.open_library;
  if (library.enabled) {
    const usedUp = "Open Library's hourly budget is used up";
    lookup.books = budgeted(library.requests_per_hour, usedUp, async (query, signal) => {
      const base = library.base_url || openLibraryDefaultBase;
      const url = openLibrarySearchUrl(base, query);
      const { status, json } = await getJson(url, "Open Library", !!library.base_url, signal);
      if (status < 200 || status > 299) return { error: `Open Library answered ${status}.` };
      const books = openLibraryBooks(json, base);
      return books ? { found: books } : { error: "Open Library answered in an unexpected shape." };
    });
  }
  return lookup;
}

/**
 * A per-service request budget: at most `perHour` requests in any sliding hour (ComicVine allows
 * 200 an hour per resource and blocks clients that go over). Times come from the caller's clock;
 * the count lives as long as the process.
 */
export class HourlyLimit {
  #times: number[] = [];
  #perHour: number;

  constructor(perHour: number) {
    this.#perHour = perHour;
  }

  /** Takes a request slot at `nowMs`, or says how many minutes until one is free. */
  take(nowMs: number): { ok: true } | { ok: false; minutes: number } {
    const hourAgo = nowMs - 3_600_000;
    this.#times = this.#times.filter((time) => time > hourAgo);
    if (this.#times.length >= this.#perHour) {
      return { ok: false, minutes: Math.max(1, Math.ceil((this.#times[0] - hourAgo) / 60_000)) };
    }
    this.#times.push(nowMs);
    return { ok: true };
  }
}
