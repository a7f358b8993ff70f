/**
 * CSRF and DNS-rebinding defence, not authentication (auth.ts is). Every request's Host must be
 * one the server answers to (a loopback name when it listens on loopback: a rebound DNS name never
 * matches). Every state change must be POST or DELETE with an Origin exactly equal to the
 * server's own origin. Requests with `Authorization: Bearer` (scripts; a browser never adds it
 * cross-site without a preflight this server does not answer) need no Origin: auth.ts then checks
 * the token and throttles wrong ones, so this check is never a token oracle.
 */
import type { Context, MiddlewareHandler } from "hono";
import { isLoopbackHost } from "../../src/adapters/network/address_policy.ts";
import { bearerOf } from "./auth.ts";

/** The host name of a Host header value ("[::1]:8420" → "[::1]"), lowercased. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.lastIndexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

const safeMethods = new Set(["GET", "HEAD"]);

function forbidden(c: Context, message: string): Response {
  return c.text(message, 403);
}

/** Options of the origin check. */
export interface OriginCheckOptions {
  /** The server listens on loopback: only loopback Host headers are accepted. */
  loopbackHostsOnly: boolean;
  /**
   * Host names accepted besides loopback ones: `web.public_url`'s, reached through a reverse proxy
   * or VPN that forwards to the loopback port (a name the user chose never rebinds to an attacker).
   */
  extraHosts?: readonly string[];
}

/** Rejects foreign Host headers and cross-origin or Origin-less state changes. */
export function originCheck(options: OriginCheckOptions): MiddlewareHandler {
  return async (c, next) => {
    // Deno.serve builds the URL from the Host header; app.request() tests may omit the header.
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!host) return forbidden(c, "Refused: missing Host header.");
    const extra = options.extraHosts ?? [];
    if (
      options.loopbackHostsOnly && !isLoopbackHost(hostName(host)) &&
      !extra.includes(hostName(host))
    ) {
      return c.text(`Refused: this dashboard only answers to 127.0.0.1 and localhost.`, 421);
    }
    const method = c.req.method.toUpperCase();
    if (safeMethods.has(method)) return await next();
    if (method !== "POST" && method !== "DELETE") {
      return c.text("Method not allowed.", 405);
    }
    if (bearerOf(c) !== undefined) return await next();
    // A button's single-use secret is its own credential (ntfy's app sends no Origin).
    if (method === "POST" && /^\/act\/[A-Za-z0-9_-]{1,64}$/.test(c.req.path)) return await next();
    const origin = c.req.header("origin");
    const expected = `${new URL(c.req.url).protocol}//${host}`;
    if (!origin) return forbidden(c, "Refused: a state change needs an Origin header.");
    if (origin.toLowerCase() !== expected.toLowerCase()) {
      return forbidden(c, "Refused: cross-origin request.");
    }
    const site = c.req.header("sec-fetch-site");
    if (site && site !== "same-origin" && site !== "none") {
      return forbidden(c, "Refused: cross-site request.");
    }
    return await next();
  };
}
