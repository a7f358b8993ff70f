/** The channels' pure rules: fitting an answer to a chat, and whether a mail is the owner's. */
import assert from "node:assert/strict";
import { fitToChannel } from "../../src/channels/channel_text.ts";
import {
  mailAuthentication,
  parseAuthenticationResults,
} from "../../src/channels/email/mail_authentication.ts";

Deno.test("an answer is split at paragraph breaks into numbered parts, none over the limit", () => {
  const paragraph = "word ".repeat(30).trim();
  const answer = Array.from({ length: 5 }, () => paragraph).join("\n\n");
  const parts = fitToChannel(answer, { maxChars: 200, maxParts: 10 });
  assert.ok(parts.length > 1);
  assert.ok(parts.every((part) => part.length <= 200), parts.map((part) => part.length).join());
  assert.ok(parts.every((part, index) => part.endsWith(`(${index + 1}/${parts.length})`)));
  const rejoined = parts.map((part) => part.replace(/ \(\d+\/\d+\)$/, "")).join(" ");
  assert.equal(rejoined.replace(/\s+/g, " "), answer.replace(/\s+/g, " "), "nothing dropped");
  assert.deepEqual(fitToChannel("short", { maxChars: 200, maxParts: 10 }), ["short"]);
});

Deno.test("an answer too long for its parts says how much was left out and where it is", () => {
  const parts = fitToChannel(
    "x ".repeat(2000),
    { maxChars: 300, maxParts: 2 },
    "http://radar/history/7",
  );
  assert.equal(parts.length, 2);
  assert.ok(parts.every((part) => part.length <= 300));
  assert.match(
    parts[1],
    /\[\d+ more characters not sent here; the whole answer: http:\/\/radar\/history\/7\] \(2\/2\)$/,
  );
});

const allowed = ["owner@example.test"];

Deno.test("mail is the owner's only with a DKIM or SPF pass for the allowed address, in the top header", () => {
  const verdict = (headers: string[], from = ["Owner@Example.test"], authservId?: string) =>
    mailAuthentication({ authenticationResults: headers, from, allowed, authservId });
  assert.deepEqual(
    verdict(["mx.example.test; dkim=pass (good signature) header.d=example.test header.s=s1"]),
    { owner: true, address: "owner@example.test", by: "dkim" },
  );
  assert.deepEqual(
    verdict(["mx.example.test; spf=pass smtp.mailfrom=owner@example.test; dkim=none"]),
    { owner: true, address: "owner@example.test", by: "spf" },
  );
  // A pass for another domain, a forged header below the server's, or a different server.
  assert.equal(verdict(["mx.example.test; dkim=pass header.d=evil.test"]).owner, false);
  assert.equal(
    verdict([
      "mx.example.test; dkim=fail header.d=example.test",
      "mx.example.test; dkim=pass header.d=example.test",
    ]).owner,
    false,
  );
  assert.equal(
    verdict(["evil.test; dkim=pass header.d=example.test"], undefined, "mx.example.test").owner,
    false,
  );
  assert.equal(
    verdict(
      [
        "evil.test; dkim=pass header.d=example.test",
        "mx.example.test; spf=pass smtp.mailfrom=owner@example.test",
      ],
      undefined,
      "mx.example.test",
    ).owner,
    true,
  );
  assert.equal(verdict([]).owner, false);
  assert.equal(
    verdict(["mx.example.test; dkim=pass header.d=example.test"], [
      "owner@example.test",
      "x@y.test",
    ]).owner,
    false,
  );
  assert.equal(
    verdict(["mx.example.test; dkim=pass header.d=evil.test"], ["eve@evil.test"]).owner,
    false,
  );
});

Deno.test("Authentication-Results is read through comments, quotes and folded lines", () => {
  const parsed = parseAuthenticationResults(
    'mx.example.test (Postfix) 1;\r\n\tdkim=pass (2048-bit key; "quoted; semicolon") header.d="example.test" header.i=@example.test;\r\n spf=softfail smtp.mailfrom=x@y',
  );
  assert.equal(parsed?.authservId, "mx.example.test");
  assert.deepEqual(parsed?.results, [
    {
      method: "dkim",
      result: "pass",
      properties: { "header.d": "example.test", "header.i": "@example.test" },
    },
    { method: "spf", result: "softfail", properties: { "smtp.mailfrom": "x@y" } },
  ]);
  assert.equal(parseAuthenticationResults(""), undefined);
});
