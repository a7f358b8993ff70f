/**
 * Authentication: every path except `/login`, `/health`, `/favicon.ico` and `/static/` needs the
 * session cookie (an HMAC of the token, HttpOnly, SameSite=Strict, named after the port) or
 * `Authorization: Bearer <token>`, on loopback too: any local process (a model's exec, a plugin
 * granted 127.0.0.1) could otherwise drive the dashboard. A wrong token or cookie counts against
 * the token's FailureThrottle for the connection's address; while it blocks, that address's token
 * checks answer 429. Comparisons are constant-time. No header (X-Forwarded-For, X-Real-IP…) makes
 * a request local or trusted.
 */
import { Buffer } from "node:buffer";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { type FailureThrottle, requestSource } from "./throttle.ts";

/** Name of the session cookie on a port-less origin (tests' app.request). */
export const sessionCookieName = "radar_session";

/**
 * The session cookie's name for a request URL: cookies are per host, not per port, so two
 * dashboards on 127.0.0.1 with different tokens must not overwrite each other's cookie.
 */
export function sessionCookieNameFor(url: string): string {
  const port = new URL(url).port;
  return port ? `${sessionCookieName}_${port}` : sessionCookieName;
}

const encoder = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Compares two strings in time independent of where they differ (hashes first: equal lengths). */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([sha256(a), sha256(b)]);
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= left[index] ^ right[index];
  return difference === 0 && a.length === b.length;
}

/** The session cookie value for a token: HMAC-SHA256, so the cookie never holds the token. */
export async function sessionValue(token: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(token),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode("radar dashboard session v1"),
  );
  return Buffer.from(signature).toString("base64url");
}

/** The bearer token a request carries, or undefined (no or malformed Authorization header). */
export function bearerOf(c: Context): string | undefined {
  const header = c.req.header("authorization");
  if (header === undefined) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? "";
}

/** Whether `path` is a same-site path safe to redirect to after login. */
export function safeNextPath(path: string | undefined): string {
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return "/";
  if ([...path].some((char) => char.charCodeAt(0) < 0x20)) return "/";
  return path;
}

/**
 * Paths without a login: the login page, health, static files, and the phone's buttons
 * (`/act/SECRET`: the single-use secret in the URL is the whole credential, see approvals.tsx).
 */
const openPaths = [
  /^\/login$/,
  /^\/health$/,
  /^\/static\//,
  /^\/favicon\.ico$/,
  /^\/act\/[A-Za-z0-9_-]{1,64}$/,
];

/** Options of the auth middleware. */
export interface AuthOptions {
  /** The dashboard token (never empty). */
  authToken: string;
  /** Wrong tokens and session cookies, per source address. */
  throttle: FailureThrottle;
}

/** Too many failures: the answer a source's token checks get for the rest of the minute. */
export function throttled(c: Context): Response {
  c.header("Retry-After", "60");
  return c.text("Too many wrong credentials. Wait a minute and try again.", 429);
}

/** Requests to open paths that carried a valid session cookie (see `signedIn`). */
const signedInRequests = new WeakSet<Request>();

/**
 * True when a request to an open path (the phone's `/act/…` page) came from a browser logged in
 * to the dashboard: such a page may show what only a login shows. Other paths need the login.
 */
export function signedIn(c: Context): boolean {
  return signedInRequests.has(c.req.raw);
}

/** Requires the token (cookie or bearer) on every path except login, health and static files. */
export function requireAuth(options: AuthOptions): MiddlewareHandler {
  const { authToken, throttle } = options;
  // Computed once: the HMAC of a fixed token never changes, and every request compares with it.
  const expectedSession = sessionValue(authToken);
  return async (c, next) => {
    if (openPaths.some((pattern) => pattern.test(c.req.path))) {
      // Not a credential check (a wrong or old cookie here counts against nothing): only whether
      // the page may show more.
      const cookie = getCookie(c, sessionCookieNameFor(c.req.url));
      if (cookie !== undefined && await constantTimeEqual(cookie, await expectedSession)) {
        signedInRequests.add(c.req.raw);
      }
      return await next();
    }
    const cookieName = sessionCookieNameFor(c.req.url);
    const bearer = bearerOf(c);
    const cookie = getCookie(c, cookieName);
    if (bearer !== undefined || cookie !== undefined) {
      const source = requestSource(c);
      if (throttle.blocked(source)) return throttled(c);
      const valid = bearer !== undefined
        ? await constantTimeEqual(bearer, authToken)
        : await constantTimeEqual(cookie!, await expectedSession);
      if (valid) return await next();
      throttle.fail(source);
      if (bearer !== undefined) {
        return c.text("Unauthorized: wrong bearer token.", 401);
      }
      deleteCookie(c, cookieName, { path: "/" });
    }
    const login = `/login?next=${encodeURIComponent(safeNextPath(c.req.path))}`;
    if (c.req.header("hx-request")) {
      c.header("HX-Redirect", login);
      return c.text("Log in first.", 401);
    }
    const accept = c.req.header("accept") ?? "";
    if (c.req.method === "GET" && accept.includes("text/html")) return c.redirect(login, 303);
    return c.text(
      "Unauthorized: open the link `radar dashboard` prints, or send Authorization: Bearer <token>.",
      401,
    );
  };
}
