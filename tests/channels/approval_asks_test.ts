/**
 * An approval asked in a chat shows the whole call before its yes: every argument whole in the
 * message, or — when that does not fit — the link to the dashboard and no way to approve here
 * (Deny only), on every channel.
 */
import assert from "node:assert/strict";
import type { ApprovalRecord } from "../../src/away/mod.ts";
import { renderAsk } from "../../src/channels/approval_asks.ts";

function record(content: string): ApprovalRecord {
  return {
    id: 3,
    tool: "write_file",
    arguments: JSON.stringify({ path: "~/notes/list.txt", content }),
    kind: "chat",
    reasons: ["write_file asks before it does this"],
    tainted: [],
    untrustedSources: [],
    privateSources: [],
    destinations: [],
    namedDestinations: [],
    hasScreenshot: false,
    state: "pending",
    createdAt: "2026-11-24T03:00:00.000Z",
    expiresAt: "2026-11-25T03:00:00.000Z",
  };
}

const options = { link: "https://radar.example/approvals/3", expires: "Wed 25 Nov 03:00 UTC" };

Deno.test("a call that fits is shown whole and answered here; one that does not, only denied here", () => {
  for (const channel of ["telegram", "email", "matrix"] as const) {
    const short = renderAsk(record("milk"), { ...options, channel, maxChars: 4096 });
    assert.ok(short.whole, channel);
    assert.match(short.text, /\n {2}content: milk\n/);
    if (channel !== "matrix") {
      assert.deepEqual(short.keys.map((key) => key.action), ["approve", "deny"], channel);
    }

    const content = "x".repeat(5000);
    const long = renderAsk(record(content), { ...options, channel, maxChars: 4096 });
    assert.equal(long.whole, false, channel);
    assert.ok(!long.text.includes(content), channel);
    assert.match(long.text, /see it and approve it on the dashboard, https:\/\/radar\.example\//);
    assert.ok(long.keys.every((key) => key.action === "deny"), `${channel}: no yes here`);
    assert.doesNotMatch(long.text, /APPROVE-|React 👍/);
    assert.deepEqual(
      long.buttons?.map((button) => button.label),
      {
        telegram: ["Deny"],
        email: undefined,
        matrix: undefined,
      }[channel],
    );
  }
});
