/**
 * Forged requests cannot lock out real ones: wrong buttons and login codes (random secrets
 * nobody guesses) are never throttled, and wrong tokens slow down only their own source address.
 */
import assert from "node:assert/strict";
import type { Capability } from "../../src/away/approval_ports.ts";
import type { AwayView } from "../../web/ports.ts";
import { createWebFixture, postForm, testToken, type WebFixture } from "./web_fixture.ts";

const realButton = "R".repeat(43);

/** The approvals port with one live button (approve #7); every other secret is unknown. */
function oneButton(): { away: AwayView; pressed: string[] } {
  const pressed: string[] = [];
  const capability = { action: "approve", target: 7 } as unknown as Capability;
  const approvals = {
    show: (id: number) => ({
      id,
      tool: "move_file",
      arguments: "{}",
      reasons: ["destination is not from your own words"],
      state: "pending",
      expiresAt: "2099-01-01T00:00:00.000Z",
    }),
    peek: (secret: string) =>
      secret === realButton ? { capability, summary: "Approve #7: move_file" } : undefined,
    redeem: (secret: string) => {
      if (secret !== realButton || pressed.length) {
        return Promise.resolve({
          ok: false,
          why: "spent",
          text: "This button has expired or was used already.",
        });
      }
      pressed.push(secret);
      return Promise.resolve({ ok: true, text: "Done (#7)." });
    },
  } as unknown as AwayView["approvals"];
  return {
    away: {
      approvals,
      grants: {} as AwayView["grants"],
      journal: {} as AwayView["journal"],
      undo: {} as AwayView["undo"],
      home: "/",
    },
    pressed,
  };
}

async function status(
  fixture: WebFixture,
  path: string,
  init: RequestInit = {},
  source = "198.51.100.7",
): Promise<number> {
  const response = await fixture.hono.request(path, init, { remoteAddr: { hostname: source } });
  await response.body?.cancel();
  return response.status;
}

Deno.test("forged buttons and login codes never lock out the real button or a login", async () => {
  const { away, pressed } = oneButton();
  const fixture = createWebFixture({ extra: { away } });
  try {
    for (let attempt = 0; attempt < 30; attempt++) {
      const forged = `F${String(attempt).padStart(42, "0")}`;
      assert.equal(await status(fixture, `/act/${forged}`), 410);
      assert.equal(await status(fixture, `/act/${forged}`, { method: "POST" }), 410);
      assert.equal(await status(fixture, `/login?code=forged-${attempt}`), 401);
    }
    assert.equal(await status(fixture, `/act/${realButton}`), 200, "the button's page");
    assert.equal(await status(fixture, `/act/${realButton}`, { method: "POST" }), 200);
    assert.deepEqual(pressed, [realButton]);
    assert.equal(await status(fixture, "/login", postForm({ token: testToken })), 303);
    const bearer = { headers: { Authorization: `Bearer ${testToken}` } };
    assert.equal(await status(fixture, "/memory", bearer), 200);
  } finally {
    fixture.close();
  }
});

Deno.test("wrong tokens from one address slow down that address only", async () => {
  const fixture = createWebFixture();
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = { headers: { Authorization: `Bearer wrong-${attempt}` } };
      assert.equal(await status(fixture, "/memory", wrong, "203.0.113.9"), 401);
    }
    const right = { headers: { Authorization: `Bearer ${testToken}` } };
    assert.equal(await status(fixture, "/memory", right, "203.0.113.9"), 429, "the guesser waits");
    assert.equal(
      await status(fixture, "/login", postForm({ token: testToken }), "203.0.113.9"),
      429,
    );
    assert.equal(await status(fixture, "/memory", right, "192.0.2.1"), 200, "the user does not");
    assert.equal(await status(fixture, "/login", postForm({ token: testToken }), "192.0.2.1"), 303);
    fixture.clock.advance(61_000);
    assert.equal(await status(fixture, "/memory", right, "203.0.113.9"), 200);
  } finally {
    fixture.close();
  }
});
