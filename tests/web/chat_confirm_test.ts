import assert from "node:assert/strict";
import { refused, type Tool } from "../../src/core/tool.ts";
import { ChatRuns } from "../../web/chat_runs.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { createWebFixture, postForm, type WebFixture } from "./web_fixture.ts";

const htmx = { "HX-Request": "true" };

/** A tool that asks before it acts, like exec's destructive commands. */
function askingTool(acted: string[]): Tool {
  return {
    name: "tidy_up",
    description: "Delete old files after asking",
    parameters: { type: "object", properties: {} },
    source: "builtin",
    alwaysOn: true,
    parse: (args) => ({ ok: true, value: args }),
    async run(_args, context) {
      if (!context.interactive || !context.confirm) return refused("Refused: nobody to ask.");
      const yes = await context.confirm("Radar wants to delete 3 old files:\n  ~/old/*.tmp\nOK?");
      if (!yes) return refused("The user declined.");
      acted.push("deleted");
      return "Deleted 3 files.";
    },
  };
}

function fixtureWithAskingTool(acted: string[]): WebFixture {
  const fixture = createWebFixture({
    script: [toolCallResponse("tidy_up", {}), textResponse("Tidied up.")],
  });
  fixture.deps.agent().registry.register(askingTool(acted));
  return fixture;
}

async function fragmentWhen(
  fixture: WebFixture,
  id: string,
  done: (html: string) => boolean,
): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const html = await (await fixture.app.request(`/chat/runs/${id}`, { headers: htmx })).text();
    if (done(html)) return html;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the run never got there");
}

const finished = (html: string) => !html.includes('class="message assistant running"');

Deno.test("chat: a tool's question shows Allow/Deny; Allow (same-origin POST only) lets it act", async () => {
  const acted: string[] = [];
  const fixture = fixtureWithAskingTool(acted);
  try {
    const sent = await fixture.app.request("/chat/send", postForm({ message: "tidy up" }, htmx));
    const conversation = fixture.conversations.list({ limit: 1 })[0];
    assert.equal(sent.headers.get("HX-Replace-Url"), `/chat?c=${conversation.id}`);
    const id = /id="run-([0-9a-f-]+)"/.exec(await sent.text())![1];
    const waiting = await fragmentWhen(fixture, id, (html) => html.includes("Allow"));
    assert.match(waiting, /Radar asks for your permission/);
    assert.match(waiting, /Radar wants to delete 3 old files:\n {2}~\/old\/\*\.tmp/);
    assert.doesNotMatch(waiting, /hx-trigger/, "no polling while the buttons wait for a click");
    const confirmation = /name="confirmation" value="([0-9a-f-]+)"/.exec(waiting)![1];
    const reloaded = await (await fixture.app.request(`/chat?c=${conversation.id}`)).text();
    assert.match(reloaded, /Radar asks for your permission/, "a reload shows the question");
    assert.equal(reloaded.split("tidy up</div>").length - 1, 1, "the message is shown once");
    assert.equal(reloaded.split('class="tool-name">tidy_up').length - 1, 1, "and its call");

    const forged = await fixture.app.request(`/chat/runs/${id}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...htmx },
      body: new URLSearchParams({ confirmation, answer: "allow" }).toString(),
    });
    assert.equal(forged.status, 403, "no Origin: refused like every state change");
    await forged.body?.cancel();
    const stale = await fixture.app.request(
      `/chat/runs/${id}/confirm`,
      postForm({ confirmation: "not-this-one", answer: "allow" }, htmx),
    );
    assert.match(await stale.text(), /Radar asks for your permission/, "still waiting");
    assert.deepEqual(acted, []);

    const allowed = await fixture.app.request(
      `/chat/runs/${id}/confirm`,
      postForm({ confirmation, answer: "allow" }, htmx),
    );
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
    const done = await fragmentWhen(fixture, id, finished);
    assert.deepEqual(acted, ["deleted"]);
    assert.match(done, /badge outcome-ok">allowed/);
    assert.match(done, /by you/);
    assert.match(done, /Deleted 3 files\./);
    assert.match(done, /Tidied up\./);
  } finally {
    fixture.close();
  }
});

Deno.test("chat: Deny refuses the tool call and the model carries on", async () => {
  const acted: string[] = [];
  const fixture = fixtureWithAskingTool(acted);
  try {
    const sent = await (await fixture.app.request(
      "/chat/send",
      postForm({ message: "tidy up" }, htmx),
    )).text();
    const id = /id="run-([0-9a-f-]+)"/.exec(sent)![1];
    const waiting = await fragmentWhen(fixture, id, (html) => html.includes("Deny"));
    const confirmation = /name="confirmation" value="([0-9a-f-]+)"/.exec(waiting)![1];
    const invalid = await fixture.app.request(
      `/chat/runs/${id}/confirm`,
      postForm({ confirmation, answer: "maybe" }, htmx),
    );
    assert.equal(invalid.status, 422);
    await invalid.body?.cancel();
    await (await fixture.app.request(
      `/chat/runs/${id}/confirm`,
      postForm({ confirmation, answer: "deny" }, htmx),
    )).body?.cancel();
    const done = await fragmentWhen(fixture, id, finished);
    assert.deepEqual(acted, []);
    assert.match(done, /badge outcome-refused">denied/);
    assert.match(done, /badge outcome-refused">refused/);
    assert.match(done, /The user declined\./);
    assert.match(done, /Tidied up\./);
  } finally {
    fixture.close();
  }
});

Deno.test("ChatRuns: an unanswered question is denied at the timeout; a cancel denies it too", async () => {
  const acted: string[] = [];
  const fixture = fixtureWithAskingTool(acted);
  try {
    const timers = new ManualTimers();
    const runs = new ChatRuns(fixture.deps, { timers, confirmTimeoutMs: 60_000 });
    const conversationId = fixture.conversations.createConversation(
      "chat",
      "t",
      fixture.clock.now(),
    );
    const first = runs.start(conversationId, "tidy up");
    await until(() => first.confirmation !== undefined);
    assert.equal(first.activity, "Waiting for your answer…");
    assert.deepEqual([...timers.pending.values()].map((timer) => timer.milliseconds), [60_000]);
    timers.fireAll();
    await first.done;
    assert.deepEqual(first.confirmations.map((answer) => [answer.allowed, answer.by]), [
      [false, "timeout"],
    ]);
    assert.equal(first.executions[0].result.outcome, "refused");
    assert.equal(runs.answer(first.id, "late", true), false);

    fixture.model.push(toolCallResponse("tidy_up", {}));
    const second = runs.start(conversationId, "tidy up again");
    await until(() => second.confirmation !== undefined);
    assert.equal(runs.cancel(second.id), true);
    await second.done;
    assert.equal(second.status, "cancelled");
    assert.deepEqual(second.confirmations.map((answer) => [answer.allowed, answer.by]), [
      [false, "cancel"],
    ]);
    assert.equal(timers.pending.size, 0, "the timeout was cleared");
    assert.deepEqual(acted, []);
  } finally {
    fixture.close();
  }
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("condition never held");
}

Deno.test("chat: a model-written personality note waits for the user's Allow before it is stored", async () => {
  const fixture = createWebFixture({
    script: [
      toolCallResponse("remember", {
        content: "Prefers short answers",
        category: "personality_note",
      }),
      textResponse("Noted."),
    ],
  });
  const notes = () => fixture.facts.listFacts({ category: "personality_note", limit: 5 });
  try {
    const sent = await (await fixture.app.request(
      "/chat/send",
      postForm({ message: "keep it short from now on" }, htmx),
    )).text();
    const id = /id="run-([0-9a-f-]+)"/.exec(sent)![1];
    const waiting = await fragmentWhen(fixture, id, (html) => html.includes("Allow"));
    assert.match(waiting, /personality note/);
    assert.match(waiting, /Prefers short answers/);
    assert.equal(notes().length, 0, "nothing stored before the answer");
    const confirmation = /name="confirmation" value="([0-9a-f-]+)"/.exec(waiting)![1];
    await (await fixture.app.request(
      `/chat/runs/${id}/confirm`,
      postForm({ confirmation, answer: "allow" }, htmx),
    )).body?.cancel();
    await fragmentWhen(fixture, id, finished);
    assert.deepEqual(notes().map((fact) => fact.content), ["Prefers short answers"]);
  } finally {
    fixture.close();
  }
});
