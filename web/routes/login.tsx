/**
 * `GET/POST /login`, `POST /logout`. The token becomes an HttpOnly, SameSite=Strict session
 * cookie holding an HMAC of it. Repeated wrong tokens are slowed down (5 per minute).
 */
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { RouteContext } from "../app.tsx";
import {
  constantTimeEqual,
  safeNextPath,
  sessionCookieName,
  sessionValue,
} from "../middleware/auth.ts";
import { field, renderPage } from "../render.tsx";
import { Notice } from "../views/layout.tsx";

const maxFailuresPerMinute = 5;

function LoginForm(props: { next: string; error?: string }) {
  return (
    <>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <form method="post" action="/login" class="login">
        <input type="hidden" name="next" value={props.next} />
        <label>
          Dashboard token
          <input type="password" name="token" autocomplete="current-password" required autofocus />
        </label>
        <button type="submit">Log in</button>
      </form>
      <p class="muted">The token is web.auth_token in radar.yaml or RADAR_WEB_AUTH_TOKEN.</p>
    </>
  );
}

/** Login and logout routes. */
export function loginRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;
  let failures: number[] = [];
  app.get("/login", (c) => {
    if (!deps.authToken) return c.redirect("/", 303);
    const next = safeNextPath(c.req.query("next"));
    return renderPage(c, { loggedIn: false }, { title: "Log in" }, <LoginForm next={next} />);
  });
  app.post("/login", async (c) => {
    if (!deps.authToken) return c.redirect("/", 303);
    const form = await c.req.parseBody();
    const next = safeNextPath(field(form, "next"));
    const now = deps.clock.now().getTime();
    failures = failures.filter((at) => now - at < 60_000);
    if (failures.length >= maxFailuresPerMinute) {
      return renderPage(
        c,
        { loggedIn: false },
        { title: "Log in", status: 429 },
        <LoginForm next={next} error="Too many wrong tokens. Wait a minute and try again." />,
      );
    }
    const token = typeof form.token === "string" ? form.token : "";
    if (!(await constantTimeEqual(token, deps.authToken))) {
      failures.push(now);
      return renderPage(
        c,
        { loggedIn: false },
        { title: "Log in", status: 401 },
        <LoginForm next={next} error="Wrong token." />,
      );
    }
    setCookie(c, sessionCookieName, await sessionValue(deps.authToken), {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      secure: new URL(c.req.url).protocol === "https:",
    });
    return c.redirect(next, 303);
  });
  app.post("/logout", (c) => {
    deleteCookie(c, sessionCookieName, { path: "/" });
    return c.redirect(deps.authToken ? "/login" : "/", 303);
  });
  return app;
}
