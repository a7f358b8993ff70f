import assert from "node:assert/strict";
import type { ChatRequest, ChatResponse } from "../../src/core/chat_model.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { createWebFixture, postForm } from "./web_fixture.ts";

const htmx = { "HX-Request": "true" };

function runIdOf(html: string): string {
  const match = /hx-get="\/chat\/runs\/([0-9a-f-]+)"|id="run-([0-9a-f-]+)"/.exec(html);
  assert.ok(match, `no run in ${html}`);
  return match[1] ?? match[2];
}

Deno.test("chat: a message runs the agent loop and the run fragment shows the tool call and answer", async () => {
  const fixture = createWebFixture({
    script: [
      toolCallResponse("remember", {
        content: "The user likes green tea",
        category: "user_preference",
      }),
      textResponse("Noted: you like **green tea**."),
    ],
  });
  try {
    const page = await (await fixture.app.request("/chat")).text();
    assert.match(page, /hx-post="\/chat\/send"/);
    const sent = await fixture.app.request(
      "/chat/send",
      postForm({ message: "Remember I like green tea" }, htmx),
    );
    assert.equal(sent.status, 200);
    const fragment = await sent.text();
    assert.match(fragment, /Remember I like green tea/);
    assert.match(
      fragment,
      /id="chat-conversation"[^>]*hx-swap-oob="true"|hx-swap-oob="true"[^>]*id="chat-conversation"/,
    );
    const finished = await waitForRun(fixture.app, runIdOf(fragment));
    assert.match(finished, /class="tool-name">remember/);
    assert.match(finished, /badge outcome-ok/);
    assert.match(finished, /Noted: you like <strong>green tea<\/strong>/);
    assert.equal(fixture.facts.countFacts(), 1, "the tool really ran");
    const conversation = fixture.conversations.list({ limit: 1 })[0];
    assert.equal(conversation.kind, "chat");
    assert.equal(conversation.title, "Remember I like green tea");
    const reloaded = await (await fixture.app.request(`/chat?c=${conversation.id}`)).text();
    assert.match(reloaded, /Noted: you like/);
    assert.match(reloaded, /class="tool-name">remember/);
  } finally {
    fixture.close();
  }
});

Deno.test("chat: a follow-up continues the conversation; refused and failed tools are marked", async () => {
  const fixture = createWebFixture({
    script: [textResponse("Hello."), toolCallResponse("no_such_tool", {}), textResponse("Sorry.")],
  });
  try {
    const first = await (await fixture.app.request("/chat/send", postForm({ message: "hi" }, htmx)))
      .text();
    const conversationId =
      /id="chat-conversation" value="(\d+)"|value="(\d+)"[^>]*id="chat-conversation"/.exec(first);
    assert.ok(conversationId);
    const id = conversationId[1] ?? conversationId[2];
    await waitForRun(fixture.app, runIdOf(first));
    const second = await (await fixture.app.request(
      "/chat/send",
      postForm({ message: "use a tool", conversation: id }, htmx),
    )).text();
    const done = await waitForRun(fixture.app, runIdOf(second));
    assert.match(done, /badge outcome-error">failed/);
    assert.match(done, /Unknown tool &quot;no_such_tool&quot;/);
    assert.equal(fixture.conversations.count(), 1);
    assert.equal(
      fixture.model.requests[1].messages.filter((message) => message.role === "user").length,
      2,
    );
  } finally {
    fixture.close();
  }
});

Deno.test("chat: a running answer shows progress and can be cancelled", async () => {
  let started = false;
  const blocking = new ScriptedChatModel([]);
  blocking.chat = (_request: ChatRequest, signal?: AbortSignal) =>
    new Promise<ChatResponse>((_resolve, reject) => {
      started = true;
      signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  const fixture = createWebFixture({ chatModel: blocking });
  try {
    const sent =
      await (await fixture.app.request("/chat/send", postForm({ message: "think hard" }, htmx)))
        .text();
    const id = runIdOf(sent);
    const progress = await (await fixture.app.request(`/chat/runs/${id}`, { headers: htmx }))
      .text();
    assert.match(progress, /The model is thinking/);
    assert.match(progress, /hx-post="\/chat\/runs\/[0-9a-f-]+\/cancel"/);
    assert.match(progress, /hx-trigger="load delay:400ms"/);
    const busy = await fixture.app.request(
      "/chat/send",
      postForm({
        message: "again",
        conversation: String(fixture.conversations.list({ limit: 1 })[0].id),
      }, htmx),
    );
    assert.equal(busy.status, 422);
    await busy.body?.cancel();
    const cancelled = await fixture.app.request(`/chat/runs/${id}/cancel`, postForm({}, htmx));
    assert.equal(cancelled.status, 200);
    await cancelled.body?.cancel();
    const done = await waitForRun(fixture.app, id);
    assert.match(done, /Cancelled\./);
    assert.ok(started);
  } finally {
    fixture.close();
  }
});

Deno.test("chat: an empty message is refused; a model failure shows one readable line", async () => {
  const fixture = createWebFixture({ script: [] });
  try {
    const empty = await fixture.app.request("/chat/send", postForm({ message: "   " }, htmx));
    assert.equal(empty.status, 422);
    await empty.body?.cancel();
    const sent = await (await fixture.app.request("/chat/send", postForm({ message: "hi" }, htmx)))
      .text();
    const done = await waitForRun(fixture.app, runIdOf(sent));
    assert.match(done, /script exhausted/);
    assert.doesNotMatch(done, /\n\s+at /, "no stack trace");
    const unknown = await fixture.app.request("/chat/runs/not-a-run", { headers: htmx });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  } finally {
    fixture.close();
  }
});

async function waitForRun(
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  id: string,
): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const html = await (await app.request(`/chat/runs/${id}`, { headers: htmx })).text();
    if (!html.includes("hx-trigger")) return html;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("run did not finish");
}
