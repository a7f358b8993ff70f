/**
 * The browser tool in real Chromium against local pages: reading a page, filling a form with
 * several kinds of fields, submitting after a yes, and no submission without one — by a submit
 * button, by a button whose script posts, by a script that posts the form itself, or in a run
 * nobody can answer.
 */
import assert from "node:assert/strict";
import { needing } from "../helpers/system_parts.ts";
import { browserTest, type SeenRequest, withBrowserPages } from "../helpers/browser_pages.ts";
import { askContext, call } from "./tool_harness.ts";

const formPage = `<!doctype html><html><head><title>Order coffee</title></head><body>
<h1>Order coffee</h1>
<p>Fresh beans, roasted weekly.</p>
<form method="post" action="/order">
  <label>Full name <input name="name" required></label>
  <label>Email <input type="email" name="email"></label>
  <label>Size <select name="size"><option>Small</option><option>Large</option></select></label>
  <label><input type="checkbox" name="gift"> Gift wrap</label>
  <label>Note <textarea name="note"></textarea></label>
  <button type="submit">Place order</button>
</form>
<button id="save" onclick="fetch('/api/save', {method: 'POST', body: 'saved'})">Remember me</button>
<a href="/about">About us</a>
</body></html>`;

const pages = {
  "/form": formPage,
  "/about": "<p>We roast coffee.</p>",
  "/order": (_request: Request, body: string) =>
    new Response(`<p>Thank you! Order received: ${new URLSearchParams(body).get("name")}</p>`, {
      headers: { "content-type": "text/html" },
    }),
  "/api/save": () => new Response("ok"),
  "/steps":
    `<form id="f" method="post" action="/order"><label>Name <input name="name"></label></form>
    <button type="button" onclick="document.getElementById('f').submit()">Continue</button>`,
};

const posts = (seen: SeenRequest[]) => seen.filter((request) => request.method !== "GET");

/** The person answers no, then yes. */
const noThenYes = () => ({ answers: [false, true], asked: [] as string[] });

const readFillSubmit = noThenYes();
Deno.test(browserTest(
  "the browser reads a page, fills a multi-field form, and submits only after a yes",
  pages,
  async ({ act, open }, { server }) => {
    const { asked } = readFillSubmit;
    const read = await open("/form");
    assert.equal(read.outcome, "ok", read.text);
    assert.match(read.text, /Title: Order coffee/);
    assert.match(read.text, /Fresh beans, roasted weekly\./);
    assert.match(read.text, /f1 text "Full name" required = ""/);
    assert.match(read.text, /f3 select "Size" \(Small \| Large\) = "Small"/);
    assert.match(read.text, /f4 checkbox "Gift wrap" = "off"/);
    assert.match(read.text, /b1 \* "Place order"/);
    assert.match(read.text, /l1 "About us" http:\/\/127\.0\.0\.1:\d+\/about/);

    const filled = await act({
      action: "fill",
      values: {
        f1: "Ada Lovelace",
        f2: "ada@example.org",
        f3: "Large",
        f4: "yes",
        f5: "Ring twice",
      },
    });
    assert.equal(filled.outcome, "ok", filled.text);
    assert.match(filled.text, /f1 "Full name" = "Ada Lovelace"/);
    assert.match(filled.text, /f3 "Size" = "Large"/);
    assert.match(filled.text, /f4 "Gift wrap" = "yes"/);
    const again = await act({ action: "read" });
    assert.match(again.text, /f2 email "Email" = "ada@example.org"/);
    assert.match(again.text, /f5 textarea "Note" = "Ring twice"/);
    assert.deepEqual(posts(server.seen), [], "filling sends nothing");

    // The first question is answered no: nothing is sent.
    const declined = await act({ action: "click", ref: "b1" });
    assert.equal(declined.outcome, "refused", declined.text);
    assert.match(declined.text, /The user said no: nothing was submitted/);
    assert.deepEqual(posts(server.seen), []);
    assert.match(asked[0], /Submit on http:\/\/127\.0\.0\.1:\d+\/form \(clicking "Place order"\)/);
    assert.match(asked[0], /Full name: Ada Lovelace/);
    assert.match(asked[0], /Size: Large/);

    // The second is answered yes: the form is posted once, with every field.
    const sent = await act({ action: "click", ref: "b1" });
    assert.equal(sent.outcome, "ok", sent.text);
    assert.match(sent.text, /^Submitted\./);
    assert.match(sent.text, /Thank you! Order received: Ada Lovelace/);
    const orders = posts(server.seen);
    assert.equal(orders.length, 1);
    assert.equal(orders[0].path, "/order");
    const body = new URLSearchParams(orders[0].body);
    assert.equal(body.get("email"), "ada@example.org");
    assert.equal(body.get("size"), "Large");
    assert.equal(body.get("gift"), "on");
    assert.equal(body.get("note"), "Ring twice");
  },
  readFillSubmit,
));

const scriptPost = noThenYes();
Deno.test(browserTest(
  "a button whose script posts is held: declined, nothing reaches the server",
  pages,
  async ({ act, open }, { server }) => {
    const { asked } = scriptPost;
    const read = await open("/form");
    // "Remember me" reads like nothing that acts: only what it sends makes it a submission.
    assert.match(read.text, /b2 "Remember me"/);
    const declined = await act({ action: "click", ref: "b2" });
    assert.equal(declined.outcome, "refused", declined.text);
    assert.match(
      asked[0],
      /sends POST http:\/\/127\.0\.0\.1:\d+\/api\/save \(POST after a click\)/,
    );
    assert.deepEqual(posts(server.seen), []);
    const allowed = await act({ action: "click", ref: "b2" });
    assert.equal(allowed.outcome, "ok", allowed.text);
    assert.deepEqual(posts(server.seen).map((request) => request.path), ["/api/save"]);
    // A link is a plain GET: no question.
    assert.match((await act({ action: "click", ref: "l1" })).text, /We roast coffee\./);
    assert.equal(asked.length, 2);
  },
  scriptPost,
));

const ownSubmit = noThenYes();
Deno.test(browserTest(
  "a script that posts the form itself (no submit event) is held as a navigation",
  pages,
  async ({ act, open }, { server }) => {
    const { asked } = ownSubmit;
    await open("/steps");
    await act({ action: "fill", values: { f1: "Grace" } });
    const declined = await act({ action: "click", ref: "b1" });
    assert.equal(declined.outcome, "refused", declined.text);
    assert.match(asked[0], /sends POST http:\/\/127\.0\.0\.1:\d+\/order \(POST navigation\)/);
    assert.match(asked[0], /Name: Grace/);
    assert.deepEqual(posts(server.seen), []);
    assert.match((await act({ action: "read" })).text, /f1 text "Name" = "Grace"/, "still there");
    const sent = await act({ action: "click", ref: "b1" });
    assert.match(sent.text, /Thank you! Order received: Grace/);
    assert.equal(posts(server.seen).length, 1);
  },
  ownSubmit,
));

Deno.test(needing(["chromium"], {
  name:
    "unattended, a submit is refused without anyone to ask, and the browser closes with the call",
}, () =>
  withBrowserPages(pages, async ({ tool, server, sessions }) => {
    const context = { ...askContext(), conversationId: 9 };
    // Outside a run (no atRunEnd) every call closes its browser: open and submit in one call.
    const refused = await call(tool, {
      action: "submit",
      url: `${server.origin}/form`,
      values: { 'input[name="name"]': "Mallory" },
      ref: "form button",
    }, context);
    assert.equal(refused.outcome, "refused", refused.text);
    assert.match(refused.text, /nobody can answer in a ask run/);
    assert.match(refused.text, /Full name: Mallory/);
    assert.deepEqual(posts(server.seen), []);
    assert.equal(sessions.open, 0, "the call's browser is closed");
  })));
