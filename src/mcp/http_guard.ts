/**
 * The fetch an HTTP MCP server is reached through: only its approved hosts, no redirects, and a
 * public name that resolves to a private address is refused (through the network guard), unless
 * the approved host is itself local (a literal private address or localhost).
 */
import {
  checkUrlAddresses,
  denoResolver,
  privateAddressKind,
  type Resolver,
} from "../adapters/network/network_guard.ts";

/** A fetch that only reaches `hosts`; a response body past `maxBytes` fails the request. */
export function guardedMcpFetch(
  hosts: readonly string[],
  fetcher: typeof fetch = fetch,
  resolve: Resolver = denoResolver,
  maxBytes = 4_000_000,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const allowed = new Set(hosts.map((host) => host.toLowerCase()));
  return async (url, init) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!allowed.has(host)) {
      throw new Error(`${host} is not an approved host of this MCP server`);
    }
    const local = host === "localhost" || privateAddressKind(host) !== undefined;
    const check = await checkUrlAddresses(target, { allowPrivate: local, resolve });
    if (check.problem) throw new Error(check.problem);
    const response = await fetcher(target, { ...init, redirect: "error" });
    if (!response.body) return response;
    return new Response(response.body.pipeThrough(byteCap(maxBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Passes bytes through until `maxBytes`, then errors the stream. */
function byteCap(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        controller.error(new Error(`the MCP server sent more than ${maxBytes} bytes`));
      } else controller.enqueue(chunk);
    },
  });
}
