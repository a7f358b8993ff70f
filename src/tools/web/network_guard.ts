/** Refuses URLs that reach private, loopback, link-local or otherwise internal addresses. */

/** Names the kind of a non-public IP address, or undefined for a public one. */
export function privateAddressKind(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) return ipv4Kind(v4.slice(1).map(Number));
  if (!ip.includes(":")) return undefined;
  const words = expandIpv6(ip);
  if (!words) return "unreadable IPv6";
  if (words.every((word) => word === 0)) return "unspecified";
  if (words.slice(0, 7).every((word) => word === 0) && words[7] === 1) return "loopback";
  const mapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b &&
    words.slice(2, 6).every((word) => word === 0);
  const compatible = words.slice(0, 6).every((word) => word === 0);
  if (mapped || nat64 || compatible) {
    return ipv4Kind([words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff]);
  }
  if (words[0] === 0x2002) {
    return ipv4Kind([words[1] >> 8, words[1] & 0xff, words[2] >> 8, words[2] & 0xff]);
  }
  if ((words[0] & 0xfe00) === 0xfc00) return "unique local (fc00::/7)";
  if ((words[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((words[0] & 0xffc0) === 0xfec0) return "site-local";
  if ((words[0] & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

function ipv4Kind([a, b, c]: number[]): string | undefined {
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 169 && b === 254) return "link-local";
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT (100.64.0.0/10)";
  if (a === 0) return "unspecified";
  if (a === 192 && b === 0 && c === 0) return "IETF reserved";
  if (a === 198 && (b === 18 || b === 19)) return "benchmarking";
  if (a >= 224) return a >= 240 ? "reserved" : "multicast";
  return undefined;
}

function expandIpv6(ip: string): number[] | undefined {
  let text = ip.split("%")[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = v4[1].split(".").map(Number);
    text = text.slice(0, -v4[1].length) +
      `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const filler = Array(halves.length === 2 ? missing : 0).fill("0");
  const words = [...head, ...filler, ...tail].map((word) => parseInt(word, 16));
  return words.length === 8 && words.every((word) => word >= 0 && word <= 0xffff)
    ? words
    : undefined;
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

/** Checks a URL before each request (and each redirect): a refusal reason, or undefined. */
export async function checkUrl(
  url: URL,
  options: { allowPrivate: boolean; resolve: Resolver },
): Promise<string | undefined> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}`;
  }
  if (url.username || url.password) return "URLs with a user name or password are not fetched";
  if (options.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  const setting = "(tools.fetch_url.allow_private)";
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is loopback ${setting}`;
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  let addresses: string[];
  if (literal) addresses = [host];
  else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      return `cannot resolve ${host}: ${(error as Error).message.split("\n")[0]}`;
    }
    if (!addresses.length) return `cannot resolve ${host}`;
  }
  for (const address of addresses) {
    const kind = privateAddressKind(address);
    if (kind) return `${host} resolves to ${address}, a ${kind} address ${setting}`;
  }
  return undefined;
}
