import assert from "node:assert/strict";
import { isLoopbackHost } from "../../src/adapters/network/address_policy.ts";
import { checkBindAddress } from "../../web/bind_policy.ts";
import { constantTimeEqual, safeNextPath, sessionValue } from "../../web/middleware/auth.ts";
import { createWebFixture, postForm, testOrigin, testToken } from "./web_fixture.ts";

Deno.test("every response carries a strict CSP, nosniff and frame-ancestors none", async () => {
  const fixture = createWebFixture();
  try {
    for (const path of ["/", "/health", "/static/style.css", "/nowhere"]) {
      const response = await fixture.app.request(path);
      await response.body?.cancel();
      const csp = response.headers.get("content-security-policy") ?? "";
      assert.match(csp, /default-src 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/, path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
    }
  } finally {
    fixture.close();
  }
});

Deno.test("pages contain no inline script or style and load only same-origin assets", async () => {
  const fixture = createWebFixture();
  try {
    for (
      const path of ["/", "/chat", "/history", "/memory", "/tasks", "/plugins", "/config", "/logs"]
    ) {
      const response = await fixture.app.request(path);
      assert.equal(response.status, 200, path);
      const html = await response.text();
      for (const tag of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
        assert.match(tag[0], /src="\/static\//, `${path}: ${tag[0]}`);
        assert.equal(tag[1], "", `${path}: inline script`);
      }
      assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, path);
      assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, path);
    }
  } finally {
    fixture.close();
  }
});

Deno.test("a loopback dashboard refuses a foreign Host header (DNS rebinding)", async () => {
  const fixture = createWebFixture();
  try {
    const rebound = await fixture.app.request("http://evil.example/", {
      headers: { Host: "evil.example:8420" },
    });
    assert.equal(rebound.status, 421);
    await rebound.body?.cancel();
    for (const host of ["127.0.0.1:8420", "localhost:8420", "[::1]:8420"]) {
      const response = await fixture.app.request(`http://${host}/health`, {
        headers: { Host: host },
      });
      assert.equal(response.status, 200, host);
      await response.body?.cancel();
    }
    const forwarded = await fixture.app.request("http://evil.example/", {
      headers: {
        Host: "evil.example",
        "X-Forwarded-For": "127.0.0.1",
        "X-Forwarded-Host": "localhost",
      },
    });
    assert.equal(forwarded.status, 421, "forwarding headers never make a request local");
    await forwarded.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("state changes need POST with an exact same-origin Origin", async () => {
  const fixture = createWebFixture();
  try {
    const add = { category: "learned_fact", content: "csrf probe" };
    const noOrigin = await fixture.app.request("/memory", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(add).toString(),
    });
    assert.equal(noOrigin.status, 403);
    await noOrigin.body?.cancel();
    for (
      const origin of [
        "http://evil.example",
        "http://localhost.evil.example",
        "null",
        "https://localhost",
      ]
    ) {
      const response = await fixture.app.request("/memory", postForm(add, { Origin: origin }));
      assert.equal(response.status, 403, origin);
      await response.body?.cancel();
    }
    const crossSite = await fixture.app.request(
      "/memory",
      postForm(add, { "Sec-Fetch-Site": "cross-site" }),
    );
    assert.equal(crossSite.status, 403);
    await crossSite.body?.cancel();
    assert.equal(fixture.facts.countFacts(), 0);
    const put = await fixture.app.request("/memory", {
      method: "PUT",
      headers: { Origin: testOrigin },
    });
    assert.equal(put.status, 405);
    await put.body?.cancel();
    const ok = await fixture.app.request("/memory", postForm(add));
    assert.equal(ok.status, 303);
    assert.equal(fixture.facts.countFacts(), 1);
  } finally {
    fixture.close();
  }
});

Deno.test("pages need a login on loopback too; the cookie is HttpOnly SameSite=Strict and holds no token", async () => {
  const fixture = createWebFixture({ authToken: "s3cret-token-that-is-long-enough" });
  const token = "s3cret-token-that-is-long-enough";
  const { hono } = fixture;
  try {
    const anonymous = await hono.request("http://127.0.0.1:8420/memory", {
      headers: { Accept: "text/html", Host: "127.0.0.1:8420" },
    });
    assert.equal(anonymous.status, 303, "loopback is no exception");
    assert.equal(anonymous.headers.get("location"), "/login?next=%2Fmemory");
    const script = await hono.request("/memory");
    assert.equal(script.status, 401);
    await script.body?.cancel();
    const htmx = await hono.request("/history/list", { headers: { "HX-Request": "true" } });
    assert.equal(htmx.status, 401);
    assert.match(htmx.headers.get("hx-redirect") ?? "", /^\/login/);
    await htmx.body?.cancel();
    for (const open of ["/health", "/login", "/static/style.css"]) {
      const response = await hono.request(open);
      assert.equal(response.status, 200, open);
      await response.body?.cancel();
    }
    const health = await (await hono.request("/health")).text();
    assert.doesNotMatch(health, /token|conversation|fact/i, "health carries no data");

    const wrong = await hono.request("/login", postForm({ token: "nope", next: "/memory" }));
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Wrong token/);
    assert.equal(wrong.headers.get("set-cookie"), null);

    const right = await hono.request("/login", postForm({ token, next: "/memory" }));
    assert.equal(right.status, 303);
    assert.equal(right.headers.get("location"), "/memory");
    const cookie = right.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Strict/i);
    assert.doesNotMatch(cookie, new RegExp(token), "the cookie holds an HMAC, not the token");
    const session = cookie.split(";")[0];
    const page = await hono.request("/memory", { headers: { Cookie: session } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Log out/);

    const forged = await hono.request("/memory", { headers: { Cookie: "radar_session=forged" } });
    assert.equal(forged.status, 401);
    assert.match(
      forged.headers.get("set-cookie") ?? "",
      /radar_session=;/,
      "a bad cookie is cleared",
    );
    await forged.body?.cancel();

    const bearer = await hono.request("/memory", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "category=learned_fact&content=from+a+script",
    });
    assert.equal(bearer.status, 303, "bearer scripts need no Origin");
    assert.equal(fixture.facts.countFacts(), 1);
    const badBearer = await hono.request("/", { headers: { Authorization: "Bearer nope" } });
    assert.equal(badBearer.status, 401);
    await badBearer.body?.cancel();

    const cookieNoOrigin = await hono.request("/memory", {
      method: "POST",
      headers: { Cookie: session, "Content-Type": "application/x-www-form-urlencoded" },
      body: "category=learned_fact&content=csrf",
    });
    assert.equal(cookieNoOrigin.status, 403, "a cookie alone never authorises a state change");
    await cookieNoOrigin.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("a local process POSTing /config with a forged Origin and no token is refused (attack that used to work)", async () => {
  const fixture = createWebFixture();
  try {
    const before = Deno.readTextFileSync(fixture.configPath);
    const text = "tools:\n  exec:\n    mode: allow_all\n";
    for (const path of ["/config", "/config/validate", "/memory"]) {
      const response = await fixture.hono.request(`http://127.0.0.1:8420${path}`, {
        method: "POST",
        headers: {
          Host: "127.0.0.1:8420",
          Origin: "http://127.0.0.1:8420",
          "Sec-Fetch-Site": "same-origin",
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ text, category: "learned_fact", content: "x" }).toString(),
      });
      assert.equal(response.status, 401, path);
      await response.body?.cancel();
    }
    assert.equal(Deno.readTextFileSync(fixture.configPath), before);
    assert.equal(fixture.facts.countFacts(), 0);
  } finally {
    fixture.close();
  }
});

Deno.test("a one-time login code logs in once, within five minutes; only the token holder gets one", async () => {
  const fixture = createWebFixture();
  const { hono } = fixture;
  const issue = async () => {
    const response = await hono.request("/login/code", {
      method: "POST",
      headers: { Authorization: `Bearer ${testToken}` },
    });
    assert.equal(response.status, 200);
    return (await response.json()).code as string;
  };
  try {
    const anonymous = await hono.request("/login/code", { method: "POST" });
    assert.equal(anonymous.status, 403, "no Origin, no bearer: refused");
    await anonymous.body?.cancel();
    const viaCookie = await fixture.app.request("/login/code", postForm({}));
    assert.equal(viaCookie.status, 401, "a browser session cannot mint codes");
    await viaCookie.body?.cancel();

    const code = await issue();
    assert.doesNotMatch(code, new RegExp(testToken));
    const first = await hono.request(`/login?code=${code}&next=%2Fhistory`);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), "/history");
    const session = (first.headers.get("set-cookie") ?? "").split(";")[0];
    assert.match(session, /^radar_session=/);
    assert.equal((await hono.request("/memory", { headers: { Cookie: session } })).status, 200);

    const again = await hono.request(`/login?code=${code}`);
    assert.equal(again.status, 401, "a code works once");
    assert.match(await again.text(), /already used or has expired/);
    assert.equal(again.headers.get("set-cookie"), null);

    const late = await issue();
    fixture.clock.advance(5 * 60_000 + 1);
    const expired = await hono.request(`/login?code=${late}`);
    assert.equal(expired.status, 401, "a code expires after five minutes");
    await expired.body?.cancel();
    const offSite = await hono.request(`/login?code=${await issue()}&next=//evil.example/`);
    assert.equal(offSite.headers.get("location"), "/");
    await offSite.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("wrong bearer tokens and cookies are throttled like /login; no Origin oracle", async () => {
  const fixture = createWebFixture();
  const { hono } = fixture;
  try {
    const guesses: RequestInit[] = [
      { headers: { Authorization: "Bearer guess-1" } },
      { method: "POST", headers: { Authorization: "Bearer guess-2" } },
      { headers: { Cookie: "radar_session=guess-3" } },
    ];
    for (const init of guesses) {
      const response = await hono.request("/memory", init);
      assert.equal(response.status, 401, "a wrong bearer without Origin is 401, never 403");
      await response.body?.cancel();
    }
    const cookie = await hono.request("/", { headers: { Cookie: "radar_session=guess-4" } });
    assert.equal(cookie.status, 401);
    await cookie.body?.cancel();
    const form = await hono.request("/login", postForm({ token: "guess-5" }));
    assert.equal(form.status, 401);
    await form.body?.cancel();
    const blocked = await hono.request("/memory", {
      headers: { Authorization: `Bearer ${testToken}` },
    });
    assert.equal(blocked.status, 429, "even the right token waits out the minute");
    assert.equal(blocked.headers.get("retry-after"), "60");
    await blocked.body?.cancel();
    fixture.clock.advance(61_000);
    const later = await hono.request("/memory", {
      headers: { Authorization: `Bearer ${testToken}` },
    });
    assert.equal(later.status, 200);
    await later.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("login slows down after five wrong tokens a minute and never redirects off-site", async () => {
  const fixture = createWebFixture({ authToken: "s3cret-token" });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fixture.hono.request(
        "/login",
        postForm({ token: `wrong-${attempt}` }),
      );
      assert.equal(response.status, 401);
      await response.body?.cancel();
    }
    const blocked = await fixture.hono.request("/login", postForm({ token: "s3cret-token" }));
    assert.equal(blocked.status, 429);
    await blocked.body?.cancel();
    fixture.clock.advance(61_000);
    const later = await fixture.hono.request(
      "/login",
      postForm({ token: "s3cret-token", next: "//evil.example/" }),
    );
    assert.equal(later.status, 303);
    assert.equal(later.headers.get("location"), "/");
  } finally {
    fixture.close();
  }
});

Deno.test("the session cookie is named after the port: two local dashboards keep their own", async () => {
  const fixture = createWebFixture();
  try {
    const response = await fixture.hono.request(
      "http://127.0.0.1:8421/login",
      postForm({ token: testToken }, { Host: "127.0.0.1:8421", Origin: "http://127.0.0.1:8421" }),
    );
    assert.equal(response.status, 303);
    assert.match(response.headers.get("set-cookie") ?? "", /^radar_session_8421=/);
  } finally {
    fixture.close();
  }
});

Deno.test("helpers: constant-time compare, session value, safe next path, bind policy", async () => {
  assert.equal(await constantTimeEqual("abc", "abc"), true);
  assert.equal(await constantTimeEqual("abc", "abd"), false);
  assert.equal(await constantTimeEqual("abc", "abcd"), false);
  assert.notEqual(await sessionValue("a"), await sessionValue("b"));
  assert.equal(safeNextPath("/history?q=x"), "/history?q=x");
  for (
    const bad of [
      "//evil.example",
      "https://evil.example",
      "/\\evil",
      "javascript:alert(1)",
      "/a\nb",
    ]
  ) {
    assert.equal(safeNextPath(bad), "/", bad);
  }
  for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["0.0.0.0", "192.168.1.5", "::", "example.com"]) {
    assert.equal(isLoopbackHost(host), false, host);
    assert.throws(() => checkBindAddress(host, ""), /needs web\.auth_token/);
    checkBindAddress(host, "token");
  }
});

Deno.test("request bodies over 1 MiB are refused before parsing", async () => {
  const fixture = createWebFixture();
  try {
    const response = await fixture.app.request(
      "/memory",
      postForm({ category: "learned_fact", content: "x".repeat(1024 * 1024 + 1) }),
    );
    assert.equal(response.status, 413);
    await response.body?.cancel();
    assert.equal(fixture.facts.countFacts(), 0);
  } finally {
    fixture.close();
  }
});
