/**
 * Fetch over a connection to an address the network guard already checked, so DNS cannot answer
 * differently between the check and the connect (no rebinding window).
 *
 * - http: a Deno HttpClient whose `tcp` transport sends the request to `address:port`; the URL
 *   (and so the Host header) keeps the name.
 * - https: Deno's `tcp` transport would send the request in clear text (measured on 2.9.6: it does
 *   no TLS), so https goes through a one-request CONNECT proxy (connect_proxy.ts) that connects to
 *   `address:port`; fetch runs TLS through the tunnel with the URL's host name as SNI and verifies
 *   the certificate against that name, as without a proxy.
 */
import { startPinnedProxy } from "./connect_proxy.ts";

/** A response plus the function that frees its client (call it after reading the body). */
export interface PinnedResponse {
  response: Response;
  close(): void;
}

/** Fetches `url` from `address` (an IP literal). */
export type PinnedFetch = (url: URL, address: string, init: RequestInit) => Promise<PinnedResponse>;

/**
 * Creates the pinned fetch over `fetcher` (the injected fetch); `caCerts` adds trusted roots
 * (tests use a throw-away CA).
 */
export function createPinnedFetch(fetcher: typeof fetch, caCerts?: string[]): PinnedFetch {
  return async (url, address, init) => {
    const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
    const hostname = address.includes(":") ? `[${address}]` : address;
    const proxy = url.protocol === "https:"
      ? startPinnedProxy({ host: url.hostname, port }, address)
      : undefined;
    const client = Deno.createHttpClient({
      caCerts,
      proxy: proxy
        ? { url: proxy.url, basicAuth: { username: proxy.username, password: proxy.password } }
        : { transport: "tcp", hostname, port },
    });
    const close = () => {
      try {
        client.close();
      } catch { /* already closed */ }
      proxy?.close();
    };
    try {
      return { response: await fetcher(url, { ...init, client }), close };
    } catch (error) {
      close();
      throw error;
    }
  };
}

/**
 * Fetches `url` from the first checked address that connects (at most four); with no addresses
 * (a private name the config allows, not resolvable here) a plain fetch.
 */
export async function fetchFromChecked(
  url: URL,
  addresses: string[],
  init: RequestInit,
  via: { fetch: typeof fetch; pinned: PinnedFetch },
): Promise<PinnedResponse> {
  if (!addresses.length) return { response: await via.fetch(url, init), close: () => {} };
  let failure: unknown;
  for (const address of addresses.slice(0, 4)) {
    try {
      return await via.pinned(url, address, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      failure = error;
    }
  }
  throw failure;
}
