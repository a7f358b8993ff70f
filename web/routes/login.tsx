/**
 * `GET /login?code=…` (the one-time link `radar serve` and `radar dashboard` print),
 * `GET/POST /login` (paste the token), `POST /login/code` (a fresh one-time code for a caller
 * holding the token: how `radar dashboard` gets a link from a running daemon), `POST /logout`.
 * A good code or token becomes an HttpOnly, SameSite=Strict session cookie holding an HMAC of
 * the token. Wrong tokens count against the token's throttle for the connection's address; wrong
 * codes are answered and never throttled (24 random bytes: see middleware/throttle.ts).
 */
import { type Context, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { RouteContext } from "../app.tsx";
import {
  bearerOf,
  constantTimeEqual,
  safeNextPath,
  sessionCookieNameFor,
  sessionValue,
  signedIn,
} from "../middleware/auth.ts";
import { requestSource } from "../middleware/throttle.ts";
import { loginCodeLifetimeMs } from "../login_codes.ts";
import { field, renderPage } from "../render.tsx";
import { Notice } from "../views/layout.tsx";

function LoginForm(props: { next: string; error?: string }) {
  return (
    <>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <p>
        Open the link <code>radar serve</code> printed, or run <code>radar dashboard</code>{" "}
        for a new one. Links work once, for five minutes.
      </p>
      <form method="post" action="/login" class="login">
        <input type="hidden" name="next" value={props.next} />
        <label>
          Dashboard token
          <input type="password" name="token" autocomplete="current-password" required />
        </label>
        <button type="submit">Log in</button>
      </form>
      <p class="muted">
        The token is web.auth_token in radar.yaml or RADAR_WEB_AUTH_TOKEN when set.
      </p>
    </>
  );
}

async function startSession(c: Context, token: string, next: string): Promise<Response> {
  setCookie(c, sessionCookieNameFor(c.req.url), await sessionValue(token), {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: new URL(c.req.url).protocol === "https:",
  });
  return c.redirect(next, 303);
}

/** Login and logout routes. */
export function loginRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps, loginCodes, throttle } = context;
  const form = (c: Context, next: string, status: 200 | 401 | 429, error?: string) =>
    renderPage(
      c,
      { loggedIn: false },
      { title: "Log in", status },
      <LoginForm next={next} error={error} />,
    );
  app.get("/login", async (c) => {
    const next = safeNextPath(c.req.query("next"));
    const code = c.req.query("code");
    // Already logged in (a phone that opened a button's page from the notification app, which
    // did not send the cookie there): straight on.
    if (code === undefined && signedIn(c)) return c.redirect(next, 303);
    if (code === undefined) return form(c, next, 200);
    if (!loginCodes.redeem(code)) {
      return form(
        c,
        next,
        401,
        "This login link was already used or has expired. Run `radar dashboard` for a new one.",
      );
    }
    return await startSession(c, deps.authToken, next);
  });
  app.post("/login", async (c) => {
    const body = await c.req.parseBody();
    const next = safeNextPath(field(body, "next"));
    const source = requestSource(c);
    if (throttle.blocked(source)) {
      return form(c, next, 429, "Too many wrong tokens. Wait a minute and try again.");
    }
    const token = typeof body.token === "string" ? body.token : "";
    if (!(await constantTimeEqual(token, deps.authToken))) {
      throttle.fail(source);
      return form(c, next, 401, "Wrong token.");
    }
    return await startSession(c, deps.authToken, next);
  });
  app.post("/login/code", (c) => {
    // Not an open path: the auth middleware already checked the bearer token (or session).
    if (bearerOf(c) === undefined) return c.text("Send Authorization: Bearer <token>.", 401);
    return c.json({ code: loginCodes.issue(), expiresInSeconds: loginCodeLifetimeMs / 1000 });
  });
  app.post("/logout", (c) => {
    deleteCookie(c, sessionCookieNameFor(c.req.url), { path: "/" });
    return c.redirect("/login", 303);
  });
  return app;
}
