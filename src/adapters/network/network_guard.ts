/** Refuses URLs that reach private, loopback, link-local or otherwise internal addresses. */
import { nonPublicAddressKind } from "./address_policy.ts";
import { firstLine } from "../../core/errors.ts";

/** Resolves a host name to its addresses (A and AAAA). */
export type Resolver = (host: string) => Promise<string[]>;

/** Resolves with Deno.resolveDns (both record types; either may be missing). */
export const denoResolver: Resolver = async (host) => {
  const results = await Promise.allSettled([
    Deno.resolveDns(host, "A"),
    Deno.resolveDns(host, "AAAA"),
  ]);
  const found = results.flatMap((result) => result.status === "fulfilled" ? result.value : []);
  const failure = results.find((result) => result.status === "rejected");
  if (!found.length && failure?.status === "rejected") throw failure.reason;
  return found;
};

/** A checked URL: a refusal, or the addresses it may be fetched from (IPv4 first). */
export type UrlCheck = { problem: string } | { problem?: undefined; addresses: string[] };

/** Checks a URL before each request (and each redirect): a refusal reason, or undefined. */
export async function checkUrl(
  url: URL,
  options: { allowPrivate: boolean; resolve: Resolver },
): Promise<string | undefined> {
  return (await checkUrlAddresses(url, options)).problem;
}

/**
 * Checks a URL and returns the addresses it resolved to, all of them public, to connect to
 * (pinned_fetch.ts). With `allowPrivate` every address is allowed: a name that does not resolve
 * here gives no addresses (the fetch resolves it itself).
 */
export async function checkUrlAddresses(
  url: URL,
  options: {
    allowPrivate: boolean;
    resolve: Resolver;
    /** What a refusal names as the way to allow private addresses. */
    allowHint?: string;
  },
): Promise<UrlCheck> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      problem: `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}`,
    };
  }
  if (url.username || url.password) {
    return { problem: "URLs with a user name or password are not fetched" };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  if (options.allowPrivate) {
    if (literal) return { addresses: [host] };
    return { addresses: await options.resolve(host).then(ipv4First, () => []) };
  }
  const setting = `(${options.allowHint ?? "tools.fetch_url.allow_private"})`;
  if (host === "localhost" || host.endsWith(".localhost")) {
    return { problem: `${host} is loopback ${setting}` };
  }
  let addresses: string[];
  if (literal) addresses = [host];
  else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      return { problem: `cannot resolve ${host}: ${firstLine(error)}` };
    }
    if (!addresses.length) return { problem: `cannot resolve ${host}` };
  }
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind) return { problem: `${host} resolves to ${address}, a ${kind} address ${setting}` };
  }
  return { addresses: ipv4First(addresses) };
}

/** IPv4 addresses before IPv6 ones (a machine without IPv6 routes still connects first time). */
export function ipv4First(addresses: string[]): string[] {
  return [...addresses].sort((left, right) =>
    Number(left.includes(":")) - Number(right.includes(":"))
  );
}
