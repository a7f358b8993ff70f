/**
 * Network grants against DNS tricks. Deno matches `--allow-net` entries by host NAME before DNS,
 * so a granted `api.example.com` could resolve (now, or later by DNS rebinding) to 127.0.0.1 or a
 * LAN address. Measured on Deno 2.9.6: `--deny-net` takes IPv4 CIDRs, is checked against the
 * RESOLVED address of every fetch/connect/WebSocket, wins over `--allow-net`, and binds the Web
 * Worker inside the process too. So a plugin host that may use the network also gets a deny list
 * of every private and special address, minus the addresses its grant names explicitly: an IP
 * literal, or what a plainly private name (`localhost`, `nas`, `nas.lan`) resolves to when the
 * host starts.
 *
 * Limits (measured): `--deny-net` parses no IPv6 CIDR (`[fc00::]/7` is "invalid host"), so only
 * the exact `[::1]` and `[::]` are denied; IPv4-mapped (`::ffff:127.0.0.1`), unique-local and
 * link-local IPv6 answers are caught only by the start-time check in `checkGrantedNames`. The
 * compiled binary cannot pass flags to itself and `Deno.permissions.revoke` of one host under a
 * global net grant is a no-op, so there the start-time check is the only protection.
 * Pure except for the injected lookup. Which addresses are private is the one address policy's
 * answer (src/adapters/network/address_policy.ts); this file turns it into flags.
 */
import ipaddr from "ipaddr.js";
import { isPrivateAddress, nonPublicIpv4Ranges } from "../adapters/network/address_policy.ts";

/** IPv6 addresses `--deny-net` can name (exact addresses only). */
const privateIpv6Denied = ["::1", "::"] as const;

/** Resolves a host name to its addresses (node:dns lookup in Radar, a table in tests). */
export type HostLookup = (host: string) => Promise<string[]>;

/** Parses dotted IPv4 to a 32-bit number; undefined when it is not IPv4. */
export function parseIpv4(text: string): number | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return undefined;
  const bytes = ipaddr.IPv4.parse(text).octets;
  return ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join(".");
}

function parseCidr(cidr: string): { base: number; prefix: number } {
  const [address, prefix] = cidr.split("/");
  return { base: parseIpv4(address)!, prefix: Number(prefix) };
}

function inCidr(address: number, cidr: { base: number; prefix: number }): boolean {
  const mask = cidr.prefix === 0 ? 0 : (~0 << (32 - cidr.prefix)) >>> 0;
  return ((address & mask) >>> 0) === cidr.base;
}

/** An IPv6 literal (brackets allowed), parsed; undefined when it is not IPv6. */
function parseIpv6(text: string): ipaddr.IPv6 | undefined {
  const address = text.replace(/^\[|\]$/g, "");
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address) : undefined;
}

/** The host of a grant entry (`host`, `host:port`, `[v6]:port`), without brackets or port. */
export function grantHost(entry: string): string {
  if (entry.startsWith("[")) return entry.slice(1, entry.indexOf("]"));
  return entry.replace(/:\d+$/, "");
}

/** True for an IP literal (v4 or v6). */
function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== undefined || parseIpv6(host) !== undefined;
}

const privateSuffix = /\.(localhost|local|lan|home|home\.arpa|internal|intranet|localdomain|corp)$/;

/**
 * True when a granted name plainly means this machine or the local network: `localhost`, a
 * single-label name (`nas`) or a private suffix (`nas.lan`, `printer.local`, `x.home.arpa`).
 */
export function isPrivateName(host: string): boolean {
  if (isIpLiteral(host)) return isPrivateAddress(host);
  return host === "localhost" || !host.includes(".") || privateSuffix.test(host);
}

/** Removes one address from a list of IPv4 CIDRs (splitting the range that held it). */
export function subtractAddress(ranges: string[], address: string): string[] {
  const target = parseIpv4(address);
  if (target === undefined) return ranges;
  const out: string[] = [];
  for (const range of ranges) {
    let cidr = parseCidr(range);
    if (!inCidr(target, cidr)) {
      out.push(range);
      continue;
    }
    while (cidr.prefix < 32) {
      const prefix = cidr.prefix + 1;
      const upper = (cidr.base | (1 << (32 - prefix))) >>> 0;
      const holding = inCidr(target, { base: upper, prefix }) ? upper : cidr.base;
      const other = holding === upper ? cidr.base : upper;
      out.push(`${formatIpv4(other)}/${prefix}`);
      cidr = { base: holding, prefix };
    }
  }
  return out;
}

/** The `--deny-net` entries for a host whose grant explicitly allows `exempt` addresses. */
export function deniedAddresses(exempt: readonly string[]): string[] {
  let ranges: string[] = [...nonPublicIpv4Ranges];
  for (const address of exempt) ranges = subtractAddress(ranges, address);
  const v6 = privateIpv6Denied.filter((address) =>
    !exempt.some((entry) =>
      parseIpv6(entry)?.toNormalizedString() === parseIpv6(address)?.toNormalizedString()
    )
  ).map((address) => `[${address}]`);
  return [...ranges, ...v6];
}

/** What the start-time check found for a grant's hosts. */
export interface NetworkCheck {
  /** Private addresses the grant names explicitly (IP literals, localhost, resolved LAN names). */
  exempt: string[];
  /** One readable line per granted public name that resolves to a private address. */
  problems: string[];
}

/**
 * Resolves the grant's names before a plugin host starts: private names give the addresses to
 * exempt; a public name that resolves to a private address is a problem (the host is not started).
 * A lookup that fails or hangs counts as no answer (the deny list still applies at connect time).
 */
export async function checkGrantedNames(
  net: readonly string[],
  lookup: HostLookup,
): Promise<NetworkCheck> {
  const exempt = new Set<string>();
  const problems: string[] = [];
  await Promise.all(net.map(async (entry) => {
    const host = grantHost(entry);
    if (isIpLiteral(host)) {
      if (isPrivateAddress(host)) exempt.add(host);
      return;
    }
    let addresses: string[];
    try {
      addresses = await lookup(host);
    } catch {
      return;
    }
    const privateOnes = addresses.filter(isPrivateAddress);
    if (isPrivateName(host)) {
      for (const address of privateOnes) exempt.add(address);
    } else if (privateOnes.length) {
      problems.push(
        `${host} resolves to ${
          privateOnes[0]
        }, a private address; grant the address itself if that is intended`,
      );
    }
  }));
  return { exempt: [...exempt].sort(), problems: problems.sort() };
}
