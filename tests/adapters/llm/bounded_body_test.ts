import assert from "node:assert/strict";
import { createChatModel } from "../../../src/adapters/llm/create_chat_model.ts";
import { retryAfterMs } from "../../../src/adapters/llm/retry_after.ts";
import { readBoundedText } from "../../../src/adapters/llm/bounded_body.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import type { ChatRequest } from "../../../src/core/chat_model.ts";
import { silentLogger } from "../../../src/core/ports.ts";
import { failure, recordingSleep } from "./llm_test_helpers.ts";
import { FakeLlmServer, ollamaText, openAiText } from "../../fakes/fake_llm_server.ts";
import { FireOnDemandTimers } from "./fire_on_demand_timers.ts";

const request: ChatRequest = {
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  temperature: 0.2,
};

const wires = [
  { name: "ollama native", base: (url: string) => url, text: ollamaText },
  { name: "openai-compatible", base: (url: string) => `${url}/v1`, text: openAiText },
];

const now = Date.UTC(2026, 10, 23, 18, 0, 0);

function model(
  server: FakeLlmServer,
  wire: typeof wires[number],
  overrides: Record<string, unknown> = {},
) {
  const { sleeps, sleep } = recordingSleep();
  const timers = new FireOnDemandTimers();
  const llm = { ...defaultConfig().llm, base_url: wire.base(server.url), ...overrides };
  const chatModel = createChatModel(llm, {
    fetch,
    logger: silentLogger,
    sleep,
    now: () => now,
    timers,
    probe: () => Promise.resolve(),
  });
  return { chatModel, sleeps, timers };
}

for (const wire of wires) {
  Deno.test(`${wire.name}: a never-ending body stops at the size cap, named in one line`, async () => {
    const server = FakeLlmServer.start().reply({ body: "", misbehave: "endless" });
    try {
      const { chatModel } = model(server, wire, { max_response_mib: 1 });
      const error = await failure(chatModel.chat(request));
      assert.equal(error.kind, "bad_response");
      assert.match(
        error.message,
        /127\.0\.0\.1:\d+ sent more than 1 MiB \(llm\.max_response_mib\)/,
      );
      assert.doesNotMatch(error.message, /\n/);
      assert.equal(server.chatRequests.length, 1, "not retried");
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(server.streams.cancelled, 1, "the client hung up");
      const sent = server.streams.bytesSent;
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(server.streams.bytesSent, sent, "nothing more is sent");
      // The cap plus what the sockets buffer in between (~4 MiB on loopback).
      assert.ok(sent < 9 * 1024 * 1024, `sent ${sent}`);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${wire.name}: headers then silence ends at the idle timeout, not the total`, async () => {
    const server = FakeLlmServer.start().reply({ body: "", misbehave: "hang_after_headers" });
    try {
      const { chatModel, timers } = model(server, wire);
      const answer = failure(chatModel.chat(request));
      await timers.fireWhenArmed(30_000);
      const error = await answer;
      assert.equal(error.kind, "timeout");
      assert.match(
        error.message,
        /127\.0\.0\.1:\d+ sent headers then nothing for 30 s \(llm\.idle_timeout_seconds\)\.$/,
      );
      assert.ok(
        timers.started.some((timer) => timer.milliseconds === 300_000),
        "the total timeout runs beside it",
      );
    } finally {
      await server.close();
    }
  });

  Deno.test(`${wire.name}: no first byte within llm.first_byte_timeout_seconds`, async () => {
    const release = Promise.withResolvers<void>();
    const server = FakeLlmServer.start().reply({ ...wire.text("late"), hold: release.promise });
    try {
      const { chatModel, timers } = model(server, wire, { first_byte_timeout_seconds: 60 });
      const answer = failure(chatModel.chat(request));
      await timers.fireWhenArmed(60_000);
      const error = await answer;
      assert.equal(error.kind, "timeout");
      assert.match(error.message, /sent nothing within 60 s \(llm\.first_byte_timeout_seconds/);
    } finally {
      release.resolve();
      await server.close();
    }
  });

  Deno.test(`${wire.name}: 429 with Retry-After (seconds or date) waits what the server asked`, async () => {
    const server = FakeLlmServer.start().reply(
      { status: 429, body: { error: "rate limited" }, headers: { "retry-after": "5" } },
      wire.text("after five"),
      {
        status: 503,
        body: { error: "busy" },
        headers: { "retry-after": new Date(now + 7000).toUTCString() },
      },
      wire.text("after seven"),
    );
    try {
      const { chatModel, sleeps } = model(server, wire);
      assert.equal((await chatModel.chat(request)).content, "after five");
      assert.equal((await chatModel.chat(request)).content, "after seven");
      assert.deepEqual(sleeps, [5000, 7000]);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${wire.name}: a Retry-After beyond llm.max_retry_wait_seconds gives up at once`, async () => {
    const server = FakeLlmServer.start().reply(
      { status: 429, body: { error: "rate limited" }, headers: { "retry-after": "120" } },
    );
    try {
      const { chatModel, sleeps } = model(server, wire, { max_retry_wait_seconds: 60 });
      const error = await failure(chatModel.chat(request));
      assert.match(error.message, /answered 429: rate limited/);
      assert.match(
        error.message,
        /asked to retry after 120 s \(Retry-After\), more than the 60 s left of llm\.max_retry_wait_seconds: giving up\.$/,
      );
      assert.deepEqual(sleeps, []);
      assert.equal(server.chatRequests.length, 1);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${wire.name}: a 200 that is not JSON says so (not "answered 500")`, async () => {
    const page = "<html><body>Please log in to the proxy " + "x".repeat(200) + "</body></html>";
    const reply = { body: page, contentType: "text/html" };
    const server = FakeLlmServer.start().reply(reply, reply);
    try {
      const { chatModel } = model(server, wire);
      const error = await failure(chatModel.chat(request));
      assert.equal(error.kind, "bad_response");
      assert.match(
        error.message,
        /answered 200 with a body that is not JSON: <html><body>Please log in to the proxy x+…$/,
      );
      assert.doesNotMatch(error.message, /500/);
      const preview = error.message.split("not JSON: ")[1];
      assert.equal(preview.length, 81, "80 characters and an ellipsis");
      assert.equal(server.chatRequests.length, 2, "retried once");
    } finally {
      await server.close();
    }
  });
}

Deno.test("the default 16 MiB cap holds against a never-ending body", async () => {
  const server = FakeLlmServer.start().reply({ body: "", misbehave: "endless" });
  try {
    const { chatModel } = model(server, wires[0]);
    const error = await failure(chatModel.chat(request));
    assert.match(error.message, /sent more than 16 MiB/);
    assert.ok(server.streams.bytesSent < 24 * 1024 * 1024, `sent ${server.streams.bytesSent}`);
  } finally {
    await server.close();
  }
});

Deno.test("a declared Content-Length over the cap is refused before reading", async () => {
  const big = JSON.stringify({ a: "x".repeat(2 * 1024 * 1024) });
  const server = FakeLlmServer.start().reply({ body: big, contentType: "application/json" });
  try {
    const { chatModel } = model(server, wires[1], { max_response_mib: 1 });
    const error = await failure(chatModel.chat(request));
    assert.match(error.message, /sent more than 1 MiB/);
  } finally {
    await server.close();
  }
});

Deno.test("retryAfterMs: seconds, HTTP-date, past date, garbage", () => {
  assert.equal(retryAfterMs("5", now), 5000);
  assert.equal(retryAfterMs(" 0 ", now), 0);
  assert.equal(retryAfterMs(new Date(now + 90_000).toUTCString(), now), 90_000);
  assert.equal(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT", now), 0);
  assert.equal(retryAfterMs("-3", now), undefined);
  assert.equal(retryAfterMs("1.5", now), undefined);
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs(null, now), undefined);
});

Deno.test("readBoundedText: a read cut off by the idle timeout is an error, never a short answer", async () => {
  const timers = new FireOnDemandTimers();
  const stopped: string[] = [];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"partial":'));
    },
  });
  const reading = readBoundedText(new Response(body), {
    maxBytes: 1024,
    idleTimeoutMs: 30_000,
    timers,
    origin: "http://127.0.0.1:1",
    stop: (reason) => stopped.push(reason.message),
  }).then(() => "answered", (error) => error.message);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the first chunk is read meanwhile
  await timers.fireWhenArmed(30_000);
  const outcome = await reading;
  assert.equal(
    outcome,
    "http://127.0.0.1:1 sent 11 bytes then nothing for 30 s (llm.idle_timeout_seconds).",
  );
  assert.deepEqual(stopped, [outcome]);
});
