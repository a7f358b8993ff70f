import assert from "node:assert/strict";
import { send, type TransportOptions } from "../../../src/adapters/llm/transport.ts";
import { LlmError } from "../../../src/core/errors.ts";

function options(overrides: Partial<TransportOptions>): TransportOptions {
  return {
    fetch: () => Promise.resolve(new Response("{}")),
    apiKey: "",
    connectTimeoutMs: 2000,
    responseTimeoutMs: 60_000,
    startHint: "Start it with `ollama serve`.",
    ...overrides,
  };
}

/** A fetch that never answers until its signal aborts; records that it was aborted. */
function hangingFetch(record: { aborted: boolean }): typeof fetch {
  return (_input, init) =>
    new Promise((_, reject) => {
      init?.signal?.addEventListener("abort", () => {
        record.aborted = true;
        reject(new DOMException("aborted", "AbortError"));
      });
    });
}

Deno.test("transport: a failed connect probe cancels the request and names the connect timeout", async () => {
  const record = { aborted: false };
  const error = await send(
    "http://10.0.0.9:11434/api/chat",
    { method: "POST", body: {} },
    options({
      fetch: hangingFetch(record),
      probe: () => Promise.reject(new Deno.errors.TimedOut("no connection")),
    }),
  ).catch((caught) => caught);
  assert.ok(error instanceof LlmError);
  assert.equal(error.kind, "unreachable");
  assert.match(error.message, /no connection within 2 s \(llm.connect_timeout_seconds\)/);
  assert.match(error.message, /ollama serve/);
  assert.ok(record.aborted, "the hanging request was cancelled");
});

Deno.test("transport: the probe runs beside the request, not before it", async () => {
  const order: string[] = [];
  let finishProbe = () => {};
  const answer = await send(
    "http://127.0.0.1:1/api/show",
    { method: "POST", body: {} },
    options({
      fetch: () => {
        order.push("fetch");
        return Promise.resolve(new Response('{"ok":true}', { status: 200 }));
      },
      probe: () => {
        order.push("probe");
        return new Promise<void>((resolve) => finishProbe = resolve);
      },
    }),
  );
  assert.deepEqual([answer.status, answer.text], [200, '{"ok":true}']);
  assert.deepEqual(order.sort(), ["fetch", "probe"], "the answer came before the probe finished");
  finishProbe();
});

Deno.test("transport: a refused request whose probe fails later leaves no unhandled rejection", async () => {
  let failProbe = (_error: Error) => {};
  const error = await send(
    "http://127.0.0.1:1/api/chat",
    { method: "POST", body: {} },
    options({
      fetch: () => Promise.reject(new TypeError("connection refused")),
      probe: () => new Promise<void>((_, reject) => failProbe = reject),
    }),
  ).catch((caught) => caught);
  assert.ok(error instanceof LlmError);
  assert.match(error.message, /connection refused/);
  failProbe(new Deno.errors.ConnectionRefused("refused"));
  await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection would fail here
});

Deno.test("transport: a refused probe (one address of several) does not cancel a request that connects", async () => {
  const answer = await send(
    "http://localhost:11434/api/chat",
    { method: "POST", body: {} },
    options({
      fetch: () => Promise.resolve(new Response('{"ok":true}', { status: 200 })),
      probe: () => Promise.reject(new Deno.errors.ConnectionRefused("::1 refused")),
    }),
  );
  assert.deepEqual([answer.status, answer.text], [200, '{"ok":true}']);
});
