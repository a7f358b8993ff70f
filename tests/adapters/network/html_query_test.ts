/**
 * queryHtml(): a CSS-selector read of a hostile page in a child process with a deadline. The
 * parent's event loop keeps turning while the child parses, the child dies at the deadline or on
 * abort, and a bad selector or a broken request is one line.
 */
import assert from "node:assert/strict";
import { queryHtml } from "../../../src/adapters/network/html_query.ts";
import { htmlQueryFlag } from "../../../src/adapters/network/html_query_flag.ts";
import { flagsOfTask } from "../../../scripts/task_flags.ts";
import { hostileHtml } from "../../helpers/hostile_html.ts";

/** Live HTML query children: the command lines (`ps`) naming the child's module. */
async function htmlQueryChildren(): Promise<string[]> {
  const listing = await new Deno.Command("ps", { args: ["-eo", "args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(listing.stdout).split("\n")
    .filter((line) => line.includes("html_query_process.ts"));
}

/** Counts timer turns of this process's event loop while `work` runs. */
async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => turns++, 20);
  try {
    return { value: await work(), turns };
  } finally {
    clearInterval(timer);
  }
}

Deno.test("queryHtml reads text, attributes and outer HTML of the elements a selector picks", async () => {
  const page = `<html><body><ul>
<li class="item" data-id="1"><a href="/a">First &amp; best</a><span class="note">new</span></li>
<li class="item" data-id="2"><a href="/b">Second</a></li>
</ul><script>var s = "<li class='item'>fake</li>";</script></body></html>`;
  const answer = await queryHtml(page, [
    {
      select: "li.item",
      fields: {
        id: { read: { attribute: "data-id" } },
        title: { within: "a", read: "text" },
        href: { within: "a", read: { attribute: "href" } },
        note: { within: ".note", read: "text" },
      },
    },
    { select: "a[href='/b']", fields: { html: { read: "html" } } },
    { select: ".missing", fields: {} },
  ]);
  assert.deepEqual(answer, {
    status: "ok",
    matches: [
      [
        { id: "1", title: "First & best", href: "/a", note: "new" },
        { id: "2", title: "Second", href: "/b", note: null },
      ],
      [{ html: '<a href="/b">Second</a>' }],
      [],
    ],
    cut: false,
  });
});

Deno.test("queryHtml names a selector it cannot read instead of failing", async () => {
  const answer = await queryHtml("<p>x</p>", [{ select: "p[", fields: {} }]);
  assert.equal(answer.status, "invalid");
  assert.match((answer as { message: string }).message, /^invalid CSS selector p\[: /);
});

Deno.test("queryHtml stops a page that stalls the parser at its deadline; the daemon's loop keeps turning", async () => {
  const { value: answer, turns } = await loopTurnsDuring(() =>
    queryHtml(hostileHtml('<p id="price">5</p>'), [{ select: "#price", fields: {} }], {
      timeoutMs: 1000,
    })
  );
  assert.deepEqual(answer, {
    status: "failed",
    message: "reading its HTML took longer than 1 s (stopped)",
  });
  // In-process, node-html-parser held this event loop for the whole parse (no turn at all).
  assert.ok(turns >= 5, `the event loop turned ${turns} times during the parse`);
  assert.deepEqual(await htmlQueryChildren(), [], "the stalled child was killed");
});

Deno.test("queryHtml stops the child when the caller gives up", async () => {
  const controller = new AbortController();
  const pending = queryHtml(hostileHtml(""), [{ select: "p", fields: {} }], {
    timeoutMs: 60_000,
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 300);
  assert.deepEqual(await pending, { status: "failed", message: "cancelled" });
  assert.deepEqual(await htmlQueryChildren(), []);
  controller.abort();
  assert.deepEqual(
    await queryHtml("<p></p>", [{ select: "p", fields: {} }], { signal: controller.signal }),
    {
      status: "failed",
      message: "cancelled",
    },
  );
});

Deno.test("main.ts in HTML-query mode (what the compiled binary runs) answers with the radar task's flags", async () => {
  const deno = JSON.parse(Deno.readTextFileSync(new URL("../../../deno.json", import.meta.url)));
  const main = new URL("../../../main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flagsOfTask(deno.tasks.radar), main, htmlQueryFlag],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const query = { queries: [{ select: "b", fields: { text: { read: "text" } } }] };
  await writer.write(new TextEncoder().encode(`${JSON.stringify(query)}\n<p>a <b>bold</b> page`));
  await writer.close();
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), {
    status: "ok",
    matches: [[{ text: "bold" }]],
    cut: false,
  });
});
