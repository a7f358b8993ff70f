/**
 * The one address policy: which IP addresses are not public (loopback, private, link-local,
 * reserved…) and which host names mean this machine's loopback interface. The fetch guard, plugin
 * network grants, HTTP MCP servers, the plain-text rules of mail and calendars and the dashboard's
 * bind and Host checks all ask here. Addresses are classified with ipaddr.js; an IPv6 address that
 * carries an IPv4 one is judged by the IPv4 address it reaches.
 */
import ipaddr from "ipaddr.js";

/** ipaddr.js ranges that are public: anything else it knows is not. */
const publicRanges = new Set(["unicast", "teredo", "amt", "as112", "as112v6"]);

/** Readable names of the non-public ranges (a range not named here reads "reserved"). */
const rangeNames: Record<string, string> = {
  unspecified: "unspecified",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  private: "private",
  uniqueLocal: "unique local (fc00::/7)",
  deprecatedSiteLocal: "site-local",
  discard: "discard-only",
  benchmarking: "benchmarking",
  rfc6052: "local-use NAT64 (64:ff9b:1::/48)",
};

/**
 * Every non-public IPv4 range as a CIDR (what `--deny-net` takes): the same ranges
 * `nonPublicAddressKind` names, tested against it.
 */
export const nonPublicIpv4Ranges = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
] as const;

/** An address or host without brackets or a trailing dot, lowercased. */
export function bare(host: string): string {
  return host.trim().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
}

/** The parsed IP of an address (IPv4 carried in IPv6 unwrapped), or undefined for a name. */
function parsedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = bare(address);
  if (!ipaddr.isValid(text)) return undefined;
  const ip = ipaddr.parse(text);
  if (ip.kind() === "ipv4") return ip;
  const carried = embeddedIpv4(ip as ipaddr.IPv6);
  return carried ? ipaddr.parse(carried) : ip;
}

/**
 * Names the kind of a non-public IP address ("loopback", "private", …), or undefined for a public
 * address or a host name. Text with a colon that is no IPv6 address is "unreadable IPv6".
 */
export function nonPublicAddressKind(address: string): string | undefined {
  const ip = parsedAddress(address);
  if (!ip) return bare(address).includes(":") ? "unreadable IPv6" : undefined;
  const range = ip.range();
  if (publicRanges.has(range)) return undefined;
  return rangeNames[range] ?? "reserved";
}

/** True for loopback, private, link-local, shared, multicast and reserved addresses (v4, v6). */
export function isPrivateAddress(address: string): boolean {
  return parsedAddress(address) !== undefined && nonPublicAddressKind(address) !== undefined;
}

/**
 * Whether a host (name or address, brackets allowed) is this machine's loopback interface:
 * `localhost`, any of 127.0.0.0/8, `::1` and the IPv6 forms carrying a 127 address.
 */
export function isLoopbackHost(host: string): boolean {
  if (bare(host) === "localhost") return true;
  return parsedAddress(host)?.range() === "loopback";
}

/**
 * The IPv4 address inside an IPv6 one that carries it to an IPv4 host: mapped (::ffff:a.b.c.d),
 * translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002:AABB:CCDD::) and the deprecated
 * compatible form (::a.b.c.d).
 */
function embeddedIpv4(ip: ipaddr.IPv6): string | undefined {
  const words = ip.parts;
  const range = ip.range();
  const fromWords = (high: number, low: number) =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  if (range === "ipv4Mapped" || range === "rfc6145") return fromWords(words[6], words[7]);
  if (range === "rfc6052" && words[2] === 0) return fromWords(words[6], words[7]);
  if (range === "6to4") return fromWords(words[1], words[2]);
  const compatible = words.slice(0, 6).every((word) => word === 0) && words[6] !== 0;
  return compatible ? fromWords(words[6], words[7]) : undefined;
}
