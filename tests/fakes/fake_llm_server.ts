/**
 * A fake LLM HTTP server on 127.0.0.1 that answers with the real response bodies recorded in
 * tests/fixtures/llm-servers (Ollama native and OpenAI-compatible), replies queued per test.
 * Run standalone for manual tries: `deno run --allow-net --allow-read tests/fakes/fake_llm_server.ts [PORT]`.
 */

/** One queued answer to a chat request. */
export interface FakeReply {
  status?: number;
  /** A JSON value, or raw text sent as is. */
  body: unknown;
  contentType?: string;
  /** Holds the answer until this settles (a slow model; a process killed mid-request). */
  hold?: Promise<unknown>;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /**
   * A misbehaving body instead of `body`: `endless` sends `{"a":"xxxx…` in 64 KiB chunks for as
   * long as the client reads; `hang_after_headers` sends the headers and then nothing.
   */
  misbehave?: "endless" | "hang_after_headers";
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

// deno-lint-ignore no-explicit-any
type Json = any;

const fixtureFolder = new URL("../fixtures/llm-servers/", import.meta.url);

/** Reads a fixture body (JSON parsed). */
export function fixture(name: string): unknown {
  return JSON.parse(Deno.readTextFileSync(new URL(name, fixtureFolder)));
}

/** A fixture reply with its documented status. */
export function fixtureReply(name: string, status = 200): FakeReply {
  return { status, body: fixture(name) };
}

/** Native `/api/chat` answer calling `name` with `args` (current Ollama shape). */
export function ollamaToolCall(name: string, args: Record<string, unknown>): FakeReply {
  const body = fixture("ollama_api_chat_tool_calls_current.synth.json") as Json;
  body.message.tool_calls = [{
    id: "call_fake0001",
    function: { index: 0, name, arguments: args },
  }];
  return { body };
}

/** Native `/api/chat` plain answer. */
export function ollamaText(content: string): FakeReply {
  const body = fixture("ollama_api_chat_text.openapi.json") as Json;
  body.message.content = content;
  return { body };
}

/** `/v1/chat/completions` answer calling `name` with `args` (Ollama /v1 shape: string arguments). */
export function openAiToolCall(name: string, args: Record<string, unknown>): FakeReply {
  const body = fixture("ollama_v1_chat_tool_calls.synth.json") as Json;
  body.choices[0].message.tool_calls = [{
    id: "call_fake0001",
    index: 0,
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  }];
  return { body };
}

/** `/v1/chat/completions` plain answer. */
export function openAiText(content: string): FakeReply {
  const body = fixture("ollama_v1_chat_text.observed.json") as Json;
  body.choices[0].message.content = content;
  return { body };
}

/** `GET /api/ps` answer: `model` running with `contextLength` tokens of context (fixture shape). */
export function psReply(model: string, contextLength: number): FakeReply {
  const body = fixture("ollama_api_ps.openapi.json") as Json;
  body.models[0] = { ...body.models[0], name: model, model, context_length: contextLength };
  return { body };
}

/**
 * A deterministic embedding: a hashed bag of lowercase words (FNV-1a into `dimensions` buckets),
 * L2-normalised. Texts sharing words get a positive cosine; the same text always the same vector.
 */
export function fakeEmbedding(text: string, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0x811c9dc5;
    for (const char of word) {
      hash ^= char.codePointAt(0)!;
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    vector[hash % dimensions] += 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** The fake server. Chat endpoints pop queued replies; the status endpoints answer from fixtures. */
export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  /** Answer of `POST /api/show`. */
  show: FakeReply = fixtureReply("ollama_api_show_tools.synth.json");
  /** Answer of `GET /v1/models`. */
  models: FakeReply = fixtureReply("ollama_v1_models.observed.json");
  /** Answer of `GET /api/ps` (default: no model running). */
  ps: FakeReply = { body: { models: [] } };
  /** Answer of `GET /props` (llama-server); default: gin's plain-text 404. */
  props: FakeReply = { status: 404, body: "404 page not found", contentType: "text/plain" };
  /**
   * Answers chat requests when the queue is empty (default: a 500 naming the problem); it sees
   * the request (a stand-in model that reads what it was sent).
   */
  fallback?: (path: string, request: RecordedRequest) => FakeReply;
  /** Answers `/api/embed` and `/v1/embeddings` instead of vectors (an error, a slow server…). */
  embedReply?: FakeReply;
  /** The vector of one text (default `fakeEmbedding`; a test may give words shared meanings). */
  embedText: (text: string) => number[] = (text) => fakeEmbedding(text);
  /** Bytes sent by misbehaving bodies, and how many of those the client cancelled. */
  readonly streams = { bytesSent: 0, cancelled: 0 };
  readonly #queue: Array<FakeReply | ((request: RecordedRequest) => FakeReply)> = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  private constructor(port: number) {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** Starts on a free port (or `port`). */
  static start(port = 0): FakeLlmServer {
    return new FakeLlmServer(port);
  }

  /** `http://127.0.0.1:PORT`. */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /**
   * Queues replies for the next chat requests, in order; a function answers from the request (a
   * model that reads the tool result it was sent).
   */
  reply(...replies: Array<FakeReply | ((request: RecordedRequest) => FakeReply)>): this {
    this.#queue.push(...replies);
    return this;
  }

  /** Chat requests received (both wire formats), bodies parsed. */
  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => /chat/.test(request.path));
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  async #handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const text = await request.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch { /* keep raw text */ }
    const recorded = { method: request.method, path, headers: request.headers, body };
    this.requests.push(recorded);
    if (path === "/api/chat" || path === "/v1/chat/completions") {
      const queued = this.#queue.shift();
      const next = (typeof queued === "function" ? queued(recorded) : queued) ??
        this.fallback?.(path, recorded) ??
        { status: 500, body: { error: "fake server: no reply queued for this request" } };
      await next.hold?.catch(() => {});
      return next.misbehave ? this.#misbehave(next) : respond(next);
    }
    if (path === "/api/embed" || path === "/v1/embeddings") {
      const reply = this.embedReply ?? embeddingReply(path, body, this.embedText);
      await reply.hold?.catch(() => {});
      return reply.misbehave ? this.#misbehave(reply) : respond(reply);
    }
    if (path === "/api/show") return respond(this.show);
    if (path === "/v1/models") return respond(this.models);
    if (path === "/props") return respond(this.props);
    if (path === "/api/ps") return respond(this.ps);
    if (path === "/api/version") return respond(fixtureReply("ollama_api_version.docs.json"));
    return respond({ status: 404, body: "404 page not found", contentType: "text/plain" });
  }

  #misbehave(reply: FakeReply): Response {
    const streams = this.streams;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (reply.misbehave === "hang_after_headers") return new Promise(() => {});
        const piece = started ? chunk : new TextEncoder().encode('{"a":"');
        started = true;
        streams.bytesSent += piece.byteLength;
        controller.enqueue(piece);
        return Promise.resolve();
      },
      cancel() {
        streams.cancelled++;
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: reply.status ?? 200,
      headers: { "content-type": "application/json; charset=utf-8", ...reply.headers },
    });
  }
}

/** Vectors from `fakeEmbedding`, in the fixture shapes of both wire formats. */
function embeddingReply(
  path: string,
  request: unknown,
  embedText: (text: string) => number[],
): FakeReply {
  const input = (request as { input?: unknown })?.input;
  const texts = (Array.isArray(input) ? input : [input]).map(String);
  const vectors = texts.map(embedText);
  if (path === "/api/embed") {
    const body = fixture("ollama_api_embed.docs.json") as Json;
    return { body: { ...body, model: (request as Json)?.model, embeddings: vectors } };
  }
  const body = fixture("ollama_v1_embeddings.synth.json") as Json;
  body.model = (request as Json)?.model;
  body.data = vectors.map((embedding, index) => ({ object: "embedding", embedding, index }));
  return { body };
}

function respond(reply: FakeReply): Response {
  const isText = typeof reply.body === "string";
  return new Response(isText ? reply.body as string : JSON.stringify(reply.body), {
    status: reply.status ?? 200,
    headers: {
      "content-type": reply.contentType ??
        (isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8"),
      ...reply.headers,
    },
  });
}

if (import.meta.main) {
  const server = FakeLlmServer.start(Number(Deno.args[0] ?? 0));
  server.fallback = (path) =>
    path.startsWith("/v1")
      ? openAiText("Hello from the fake model.")
      : ollamaText("Hello from the fake model.");
  console.error(`fake LLM server on ${server.url} (answers with fixture shapes)`);
}
