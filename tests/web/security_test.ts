import assert from "node:assert/strict";
import { checkBindAddress, isLoopbackAddress } from "../../web/bind_policy.ts";
import { constantTimeEqual, safeNextPath, sessionValue } from "../../web/middleware/auth.ts";
import { createWebFixture, postForm, testOrigin } from "./web_fixture.ts";

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

Deno.test("a foreign Host header is refused when no token is set (DNS rebinding)", async () => {
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

Deno.test("with a token: pages redirect to login, wrong tokens fail, the cookie is HttpOnly SameSite=Strict", async () => {
  const fixture = createWebFixture({ authToken: "s3cret-token" });
  try {
    const anonymous = await fixture.app.request("/memory", { headers: { Accept: "text/html" } });
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get("location"), "/login?next=%2Fmemory");
    const script = await fixture.app.request("/memory");
    assert.equal(script.status, 401);
    await script.body?.cancel();
    const htmx = await fixture.app.request("/history/list", { headers: { "HX-Request": "true" } });
    assert.equal(htmx.status, 401);
    assert.match(htmx.headers.get("hx-redirect") ?? "", /^\/login/);
    await htmx.body?.cancel();
    for (const open of ["/health", "/login", "/static/style.css"]) {
      const response = await fixture.app.request(open);
      assert.equal(response.status, 200, open);
      await response.body?.cancel();
    }

    const wrong = await fixture.app.request(
      "/login",
      postForm({ token: "s3cret-tokeN", next: "/memory" }),
    );
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Wrong token/);
    assert.equal(wrong.headers.get("set-cookie"), null);

    const right = await fixture.app.request(
      "/login",
      postForm({ token: "s3cret-token", next: "/memory" }),
    );
    assert.equal(right.status, 303);
    assert.equal(right.headers.get("location"), "/memory");
    const cookie = right.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Strict/i);
    assert.doesNotMatch(cookie, /s3cret-token/, "the cookie holds an HMAC, not the token");
    const session = cookie.split(";")[0];
    const page = await fixture.app.request("/memory", { headers: { Cookie: session } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Log out/);

    const forged = await fixture.app.request("/memory", {
      headers: { Cookie: "radar_session=forged" },
    });
    assert.equal(forged.status, 401);
    await forged.body?.cancel();

    const bearer = await fixture.app.request("/memory", {
      method: "POST",
      headers: {
        Authorization: "Bearer s3cret-token",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "category=learned_fact&content=from+a+script",
    });
    assert.equal(bearer.status, 303, "bearer scripts need no Origin");
    assert.equal(fixture.facts.countFacts(), 1);
    const badBearer = await fixture.app.request("/", { headers: { Authorization: "Bearer nope" } });
    assert.equal(badBearer.status, 401);
    await badBearer.body?.cancel();

    const cookieNoOrigin = await fixture.app.request("/memory", {
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

Deno.test("login slows down after five wrong tokens a minute and never redirects off-site", async () => {
  const fixture = createWebFixture({ authToken: "s3cret-token" });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fixture.app.request("/login", postForm({ token: `wrong-${attempt}` }));
      assert.equal(response.status, 401);
      await response.body?.cancel();
    }
    const blocked = await fixture.app.request("/login", postForm({ token: "s3cret-token" }));
    assert.equal(blocked.status, 429);
    await blocked.body?.cancel();
    fixture.clock.advance(61_000);
    const later = await fixture.app.request(
      "/login",
      postForm({ token: "s3cret-token", next: "//evil.example/" }),
    );
    assert.equal(later.status, 303);
    assert.equal(later.headers.get("location"), "/");
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
    assert.equal(isLoopbackAddress(host), true, host);
  }
  for (const host of ["0.0.0.0", "192.168.1.5", "::", "example.com"]) {
    assert.equal(isLoopbackAddress(host), false, host);
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
