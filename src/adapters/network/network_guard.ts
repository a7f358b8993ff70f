/** Refuses URLs that reach private, loopback, link-local or otherwise internal addresses. */
import ipaddr from "ipaddr.js";

/** Readable names of the non-public ranges ipaddr.js knows (anything else is public). */
const internalRanges: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "reserved",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  private: "private",
  reserved: "reserved",
  uniqueLocal: "unique local (fc00::/7)",
  deprecatedSiteLocal: "site-local",
  discard: "discard-only",
  benchmarking: "benchmarking",
  segmentRouting: "reserved",
  deprecatedOrchid: "reserved",
  orchid2: "reserved",
  rfc6052: "local-use NAT64 (64:ff9b:1::/48)",
};

/** Names the kind of a non-public IP address, or undefined for a public one (or a name). */
export function privateAddressKind(address: string): string | undefined {
  const text = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(text)) return text.includes(":") ? "unreadable IPv6" : undefined;
  const ip = ipaddr.parse(text);
  if (ip.kind() === "ipv6") {
    const embedded = embeddedIpv4(ip as ipaddr.IPv6);
    if (embedded) return privateAddressKind(embedded);
  }
  return internalRanges[ip.range()];
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
      return { problem: `cannot resolve ${host}: ${(error as Error).message.split("\n")[0]}` };
    }
    if (!addresses.length) return { problem: `cannot resolve ${host}` };
  }
  for (const address of addresses) {
    const kind = privateAddressKind(address);
    if (kind) return { problem: `${host} resolves to ${address}, a ${kind} address ${setting}` };
  }
  return { addresses: ipv4First(addresses) };
}

/** IPv4 addresses before IPv6 ones (a machine without IPv6 routes still connects first time). */
function ipv4First(addresses: string[]): string[] {
  return [...addresses].sort((left, right) =>
    Number(left.includes(":")) - Number(right.includes(":"))
  );
}
