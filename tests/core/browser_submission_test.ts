/**
 * The rules that decide whether a browser submission is the one the person approved, and how it
 * is shown: same method, same URL, the same field names in order with the same values (a hidden
 * field's value may be fresh), the same body; origins compared exactly (scheme, host and port).
 */
import assert from "node:assert/strict";
import {
  type HeldSubmission,
  originOf,
  type Submission,
  submissionChange,
} from "../../src/core/browser.ts";
import { submissionSummary } from "../../src/tools/browser_text.ts";

const approved: Submission = {
  method: "POST",
  url: "https://bank.example/renew",
  fields: [
    { name: "token", value: "t1", hidden: true },
    { name: "card", value: "2231 8841", label: "Card number" },
    { name: "pin", value: "4411", label: "PIN", secret: true },
  ],
};

const request = (edit: Partial<Submission> = {}): Submission => ({
  method: "POST",
  url: "https://bank.example/renew",
  fields: [
    { name: "token", value: "t2" },
    { name: "card", value: "2231 8841" },
    { name: "pin", value: "4411" },
  ],
  ...edit,
});

Deno.test("a submission is the approved one only with the same method, URL, fields and values", () => {
  assert.equal(submissionChange(approved, request()), undefined, "a fresh token is the page's own");
  assert.equal(
    submissionChange(approved, request({ url: "https://bank.example/renew#x" })),
    undefined,
  );
  assert.equal(
    submissionChange(approved, request({ url: "https://evil.example/renew" })),
    "it now sends POST to https://evil.example/renew, not POST to https://bank.example/renew",
  );
  assert.match(
    submissionChange(approved, request({ url: "https://bank.example:8443/renew" }))!,
    /now sends/,
  );
  assert.match(submissionChange(approved, request({ method: "GET" }))!, /now sends GET/);
  assert.equal(
    submissionChange(approved, request({ fields: [{ name: "card", value: "2231 8841" }] })),
    'it now sends the fields "card", not "token", "card", "pin"',
  );
  const other = request();
  other.fields![1] = { name: "card", value: "9999" };
  assert.equal(
    submissionChange(approved, other),
    'the field "Card number" now holds another value',
  );
  assert.equal(
    submissionChange(
      { method: "POST", url: approved.url, body: '{"a":1}' },
      request({ fields: undefined, body: '{"a":2}' }),
    ),
    "it now sends a different body",
  );
  assert.equal(
    submissionChange(approved, request({ tooLarge: true })),
    "it sends more than can be shown",
  );
});

Deno.test("origins are scheme, host and port; WebSockets count as their http origin", () => {
  assert.equal(originOf("https://Bank.Example/a?b"), "https://bank.example");
  assert.equal(originOf("https://bank.example:443/"), "https://bank.example");
  assert.equal(originOf("http://127.0.0.1:8080/x"), "http://127.0.0.1:8080");
  assert.equal(originOf("wss://bank.example/socket"), "https://bank.example");
  assert.equal(originOf("ws://127.0.0.1:9/s"), "http://127.0.0.1:9");
  for (const url of ["about:blank", "data:text/html,x", "javascript:1", "not a url"]) {
    assert.equal(originOf(url), undefined, url);
  }
});

Deno.test("the question shows every request whole: target, another site named, every field, passwords masked", () => {
  const long = "x".repeat(1500);
  const held: HeldSubmission[] = [
    { ...approved, why: "form submit" },
    {
      method: "POST",
      url: "https://evil.example/collect",
      body: `{"note":"${long}"}`,
      why: "POST after a click",
    },
  ];
  const summary = submissionSummary("https://bank.example/loans", "Renew all", held);
  assert.equal(
    summary,
    [
      'Submit on https://bank.example/loans (clicking "Renew all")',
      "  sends POST https://bank.example/renew (form submit)",
      "    token (hidden): t1",
      "    Card number: 2231 8841",
      "    PIN: ••••••",
      "  sends POST https://evil.example/collect (POST after a click) — to https://evil.example, " +
      "another site than the page's",
      "    body:",
      `      {"note":"${long}"}`,
    ].join("\n"),
  );
});
