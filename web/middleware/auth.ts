/**
 * Token authentication. With no token configured (loopback only) every request passes. With a
 * token: `/login`, `/health`, `/favicon.ico` and `/static/` are open; everything else needs the session cookie
 * (an HMAC of the token, HttpOnly, SameSite=Strict) or `Authorization: Bearer <token>`.
 * Comparisons are constant-time. No header (X-Forwarded-For, X-Real-IP…) makes a request local.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";

/** Name of the session cookie. */
export const sessionCookieName = "radar_session";

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
  return btoa(String.fromCharCode(...new Uint8Array(signature))).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
}

/** Whether the request carries `Authorization: Bearer <token>` with the right token. */
export async function hasValidBearer(c: Context, token: string): Promise<boolean> {
  if (!token) return false;
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? await constantTimeEqual(match[1], token) : false;
}

/** Whether the request carries a valid session cookie. */
export async function hasValidSession(c: Context, token: string): Promise<boolean> {
  if (!token) return false;
  const cookie = getCookie(c, sessionCookieName);
  return cookie ? await constantTimeEqual(cookie, await sessionValue(token)) : false;
}

/** Whether `path` is a same-site path safe to redirect to after login. */
export function safeNextPath(path: string | undefined): string {
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return "/";
  if ([...path].some((char) => char.charCodeAt(0) < 0x20)) return "/";
  return path;
}

const openPaths = [/^\/login$/, /^\/health$/, /^\/static\//, /^\/favicon\.ico$/];

/** Requires the token (cookie or bearer) on every path except login, health and static files. */
export function requireAuth(options: { authToken: string }): MiddlewareHandler {
  return async (c, next) => {
    const token = options.authToken;
    if (!token || openPaths.some((pattern) => pattern.test(c.req.path))) return await next();
    if (await hasValidSession(c, token) || await hasValidBearer(c, token)) return await next();
    const login = `/login?next=${encodeURIComponent(safeNextPath(c.req.path))}`;
    if (c.req.header("hx-request")) {
      c.header("HX-Redirect", login);
      return c.text("Log in first.", 401);
    }
    const accept = c.req.header("accept") ?? "";
    if (c.req.method === "GET" && accept.includes("text/html")) return c.redirect(login, 303);
    return c.text("Unauthorized: log in or send Authorization: Bearer <token>.", 401);
  };
}
