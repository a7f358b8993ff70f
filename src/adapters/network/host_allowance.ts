/**
 * The network guard with named exceptions: private hosts and ranges the user listed (a router's
 * page, a NAS, the tests' loopback servers) may be reached although they are not public; every
 * other private, loopback or link-local address is still refused. The addresses returned are the
 * ones to connect to (pinned), exactly as `checkUrlAddresses` returns them.
 */
import ipaddr from "ipaddr.js";
import { bare, nonPublicAddressKind } from "./address_policy.ts";
import { checkUrlAddresses, ipv4First, type Resolver, type UrlCheck } from "./network_guard.ts";
import { firstLine } from "../../core/errors.ts";

/** Whether a host name or address is on the allow-list. */
export type HostAllowance = (host: string) => boolean;

/** Builds the allowance of `entries` (names, IP addresses, CIDR ranges); none: nothing extra. */
export function hostAllowance(entries: readonly string[]): HostAllowance {
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of entries) {
    const text = bare(entry);
    if (text.includes("/")) {
      try {
        ranges.push(ipaddr.parseCIDR(text));
      } catch { /* the config schema checks the shape; an unreadable range allows nothing */ }
    } else if (ipaddr.isValid(text)) {
      const ip = ipaddr.parse(text);
      ranges.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
    } else names.add(text);
  }
  return (host) => {
    const text = bare(host);
    if (names.has(text)) return true;
    if (!ipaddr.isValid(text)) return false;
    const ip = ipaddr.parse(text);
    return ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  };
}

/** How to check a URL: the guard's settings plus the allow-list. */
export interface AllowanceCheckOptions {
  allowPrivate: boolean;
  allowed: HostAllowance;
  resolve: Resolver;
  /** What a refusal names as the way to allow private addresses. */
  allowHint: string;
}

/**
 * Checks a URL like `checkUrlAddresses`, except that a listed host name may resolve anywhere and
 * a listed address or range may be reached although it is private. Refusals name the setting.
 */
export async function checkUrlWithAllowance(
  url: URL,
  options: AllowanceCheckOptions,
): Promise<UrlCheck> {
  const host = bare(url.hostname);
  const guard = { allowPrivate: options.allowPrivate, allowHint: options.allowHint };
  if (options.allowPrivate || !options.allowed(host)) {
    const first = await checkUrlAddresses(url, { ...guard, resolve: options.resolve });
    if (!first.problem || options.allowPrivate) return first;
    // A public-looking name may resolve to a listed private address (router.lan → 192.168.1.1).
    if (!/ resolves to /.test(first.problem)) return first;
  }
  const scheme = await checkUrlAddresses(url, {
    allowPrivate: true,
    resolve: options.resolve,
  });
  if (scheme.problem !== undefined) return scheme;
  let addresses = scheme.addresses;
  if (!addresses.length && (host === "localhost" || host.endsWith(".localhost"))) {
    addresses = ["127.0.0.1"];
  } else if (!addresses.length) {
    // Resolved here, so the connection stays pinned to what was checked.
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      return { problem: `cannot resolve ${host}: ${firstLine(error)}` };
    }
    if (!addresses.length) return { problem: `cannot resolve ${host}` };
  }
  addresses = ipv4First(addresses);
  if (options.allowed(host)) return { addresses };
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind && !options.allowed(address)) {
      return {
        problem: `${host} resolves to ${address}, a ${kind} address (${options.allowHint})`,
      };
    }
  }
  return { addresses };
}
