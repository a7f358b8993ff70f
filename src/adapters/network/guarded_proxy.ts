/**
 * A forward proxy on 127.0.0.1 through which a browser reaches the network: every connection it
 * opens passes the network guard first. Chromium started with `--proxy-server` pointing here (and
 * `<-loopback>`, so loopback goes through it too) never resolves a destination name itself: it
 * hands the name to the proxy, which resolves it, checks every address and connects only to an
 * address it checked — no DNS rebinding window, and nothing the page does (navigations,
 * subrequests, WebSockets, service workers, beacons, preconnects) can go around it.
 *
 * - `CONNECT host:port` (https, wss, ws): checked, then a tunnel to the checked address; TLS stays
 *   end to end between the browser and the site.
 * - `GET http://host:port/path` (plain http): checked, then forwarded to the checked address in
 *   origin form with `Connection: close` both ways, so every plain-http request gets its own
 *   connection and its own check.
 *
 * Clients must send the random password (Playwright answers the 407 challenge with it).
 */
import {
  closeQuietly,
  type LocalProxy,
  type ProxyRequest,
  readHead,
  startLocalProxy,
  tunnelThrough,
} from "./connect_proxy.ts";
import type { UrlCheck } from "./network_guard.ts";

/** What the proxy asks and tells. */
export interface GuardedProxyOptions {
  /** The guard: addresses to connect to for a URL (`https://host:port/` for CONNECT), or why not. */
  check(url: URL): Promise<UrlCheck>;
  /** Told about every refused target (what the page tried to reach and why it may not). */
  refused?(target: string, problem: string): void;
  /** Opens a TCP connection (tests inject failures); Deno.connect by default. */
  connect?(address: string, port: number): Promise<Deno.Conn>;
}

const maxRequestHead = 64 * 1024;
const maxResponseHead = 64 * 1024;
const encoder = new TextEncoder();

/** The proxy, and a way to end the connections it holds open to some destinations. */
export interface GuardedProxy extends LocalProxy {
  /**
   * Closes every open connection (tunnel or request) whose destination `keep` rejects (the URL
   * the guard checked for it); returns how many.
   */
  closeExcept(keep: (url: URL) => boolean): number;
}

/** Starts the proxy. */
export function startGuardedProxy(options: GuardedProxyOptions): GuardedProxy {
  /** Open connections and where they go (a tunnel lives as long as the browser keeps it). */
  const live = new Map<Deno.Conn, { url: URL; client: Deno.Conn }>();
  const connect = options.connect ??
    ((address: string, port: number) => Deno.connect({ hostname: address, port }));
  const refuse = async (client: Deno.Conn, target: string, problem: string) => {
    options.refused?.(target, problem);
    const body = `Refused by Radar's network guard: ${problem}\n`;
    await client.write(encoder.encode(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${encoder.encode(body).length}\r\nConnection: close\r\n\r\n${body}`,
    ));
  };
  const dial = async (
    addresses: string[],
    port: number,
    track: ProxyRequest["track"],
  ): Promise<Deno.Conn> => {
    let failure: unknown = new Error("no address");
    for (const address of addresses.slice(0, 4)) {
      try {
        return track(await connect(address.replace(/^\[|\]$/g, ""), port));
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };
  const proxy = startLocalProxy(async (client, request) => {
    const { head, lines, method, target, rest, track, release } = request;
    if (!head) return;
    if (!request.authorized) {
      await client.write(encoder.encode(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="radar"\r\n' +
          "Content-Length: 0\r\nConnection: close\r\n\r\n",
      ));
      return;
    }
    const url = method === "CONNECT" ? connectUrl(target) : absoluteUrl(target);
    if (!url) return await refuse(client, target ?? "", "not a proxy request");
    const check = await options.check(url);
    if (check.problem !== undefined) return await refuse(client, url.host, check.problem);
    const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
    let upstream: Deno.Conn;
    try {
      upstream = await dial(check.addresses, port, track);
    } catch {
      await client.write(encoder.encode(
        "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
      ));
      return;
    }
    live.set(upstream, { url, client });
    try {
      if (method === "CONNECT") return await tunnelThrough(client, upstream, rest);
      await upstream.write(encoder.encode(originFormHead(lines, method, url)));
      if (rest.byteLength) await upstream.write(rest);
      client.readable.pipeTo(upstream.writable).catch(() => {});
      const response = await readHead(upstream, maxResponseHead);
      if (!response.head) return;
      await client.write(encoder.encode(`${closingHead(response.head)}\r\n\r\n`));
      if (response.rest.byteLength) await client.write(response.rest);
      await upstream.readable.pipeTo(client.writable).catch(() => {});
    } finally {
      live.delete(upstream);
      release(upstream);
    }
  }, maxRequestHead);
  return {
    ...proxy,
    closeExcept(keep) {
      let closed = 0;
      for (const [upstream, { url, client }] of [...live]) {
        if (keep(url)) continue;
        live.delete(upstream);
        closeQuietly(upstream);
        closeQuietly(client);
        closed++;
      }
      return closed;
    },
  };
}

/** `host:port` of a CONNECT as a URL the guard checks (any scheme the guard allows will do). */
function connectUrl(authority: string | undefined): URL | undefined {
  if (!authority || !/^(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]]+):\d{1,5}$/.test(authority)) {
    return undefined;
  }
  try {
    return new URL(`https://${authority}/`);
  } catch {
    return undefined;
  }
}

/** The URL of an absolute-form request (`http://host/path`); only plain http comes this way. */
function absoluteUrl(target: string | undefined): URL | undefined {
  if (!target || !/^http:\/\//i.test(target)) return undefined;
  try {
    return new URL(target);
  } catch {
    return undefined;
  }
}

const hopByHop = /^(proxy-authorization|proxy-connection|connection|keep-alive):/i;

/** The request head for the origin server: origin-form target, proxy headers gone, one request. */
function originFormHead(lines: string[], method: string, url: URL): string {
  const version = lines[0].split(" ")[2] || "HTTP/1.1";
  const headers = lines.slice(1).filter((line) => line && !hopByHop.test(line));
  if (!headers.some((line) => /^host:/i.test(line))) headers.unshift(`Host: ${url.host}`);
  return [
    `${method} ${url.pathname}${url.search} ${version}`,
    ...headers,
    "Connection: close",
    "",
    "",
  ]
    .join("\r\n");
}

/** The response head with `Connection: close` (the browser opens a new connection next time). */
function closingHead(head: string): string {
  const lines = head.split("\r\n").filter((line) => !/^(connection|keep-alive):/i.test(line));
  return [...lines, "Connection: close"].join("\r\n");
}
