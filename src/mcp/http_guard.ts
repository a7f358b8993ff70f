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
} from "../tools/web/network_guard.ts";

/** A fetch that only reaches `hosts`. */
export function guardedMcpFetch(
  hosts: readonly string[],
  fetcher: typeof fetch = fetch,
  resolve: Resolver = denoResolver,
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
    return await fetcher(target, { ...init, redirect: "error" });
  };
}
