/**
 * A stand-in for ComicVine and Open Library on 127.0.0.1 (a free port), answering with the bodies
 * in tests/fixtures/lookups/ and recording every request. ComicVine answers only with the right
 * `api_key` (status_code 100 otherwise) and `rateLimited` makes it answer 107.
 */
const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/lookups/${name}`, import.meta.url));

/** A running fake. */
export interface FakeMetadataServer {
  /** `http://127.0.0.1:PORT/api` (ComicVine's base) and `http://127.0.0.1:PORT` (Open Library's). */
  comicVineBase: string;
  openLibraryBase: string;
  requests: URL[];
  rateLimited: boolean;
  close(): Promise<void>;
}

/** Starts the fake; `apiKey` is the ComicVine key it accepts. */
export function startFakeMetadataServer(apiKey = "cv-test-key-123"): FakeMetadataServer {
  const state = { requests: [] as URL[], rateLimited: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    state.requests.push(url);
    const json = (body: string) =>
      new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
    if (url.pathname === "/api/search/") {
      if (url.searchParams.get("api_key") !== apiKey) {
        return json(fixture("comicvine_invalid_key.json"));
      }
      if (fake.rateLimited) return json(fixture("comicvine_rate_limited.json"));
      return json(fixture("comicvine_search_saga.json"));
    }
    if (url.pathname === "/search.json") return json(fixture("openlibrary_search.json"));
    return new Response("not found", { status: 404 });
  });
  const port = server.addr.port;
  const fake: FakeMetadataServer = {
    comicVineBase: `http://127.0.0.1:${port}/api`,
    openLibraryBase: `http://127.0.0.1:${port}`,
    requests: state.requests,
    rateLimited: false,
    close: () => server.shutdown(),
  };
  return fake;
}
