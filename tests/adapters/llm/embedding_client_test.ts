// deno-lint-ignore-file no-explicit-any -- wire bodies are inspected loosely in assertions
import assert from "node:assert/strict";
import { createEmbeddingModel } from "../../../src/adapters/llm/create_embedding_model.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import { cosineSimilarity } from "../../../src/core/embedding_model.ts";
import { silentLogger } from "../../../src/core/ports.ts";
import { failure, recordingSleep } from "./llm_test_helpers.ts";
import {
  fakeEmbedding,
  FakeLlmServer,
  fixture,
  fixtureReply,
} from "../../fakes/fake_llm_server.ts";

function embedder(overrides: Record<string, unknown>) {
  const { sleeps, sleep } = recordingSleep();
  const model = createEmbeddingModel(
    { ...defaultConfig().llm, embedding_model: "nomic-embed-text", ...overrides },
    {
      fetch,
      logger: silentLogger,
      sleep,
      probe: () => Promise.resolve(),
    },
  );
  assert.ok(model);
  return { model, sleeps };
}

const wires = [
  { name: "ollama /api/embed", path: "/api/embed", base: (url: string) => url },
  { name: "openai /v1/embeddings", path: "/v1/embeddings", base: (url: string) => `${url}/v1` },
];

for (const wire of wires) {
  Deno.test(`${wire.name}: one vector per text, in order, meaning kept`, async () => {
    const server = FakeLlmServer.start();
    try {
      const { model } = embedder({ base_url: wire.base(server.url) });
      const texts = ["weather forecast for Paris", "rain in Paris tomorrow", "disk space free"];
      const vectors = await model.embed(texts);
      assert.deepEqual(vectors, texts.map((text) => fakeEmbedding(text)));
      assert.ok(
        cosineSimilarity(vectors[0], vectors[1]) > cosineSimilarity(vectors[0], vectors[2]),
      );
      const sent = server.requests.at(-1)!;
      assert.equal(sent.path, wire.path);
      assert.equal((sent.body as any).model, "nomic-embed-text");
      assert.deepEqual((sent.body as any).input, texts);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${wire.name}: a dead server is one line naming it, no long backoff`, async () => {
    const server = FakeLlmServer.start();
    const url = server.url;
    await server.close();
    const { model, sleeps } = embedder({ base_url: wire.base(url) });
    const error = await failure(model.embed(["x"]));
    assert.equal(error.kind, "unreachable");
    assert.match(
      error.message,
      new RegExp(`^Cannot reach the embedding server at ${url}: connection refused\\. Embeddings`),
    );
    assert.doesNotMatch(error.message, /\n/);
    assert.ok(sleeps.length <= 1, `waited ${sleeps}`);
  });

  Deno.test(`${wire.name}: wrong counts, non-JSON and oversized answers are named`, async () => {
    const server = FakeLlmServer.start();
    try {
      const { model } = embedder({ base_url: wire.base(server.url), max_response_mib: 1 });
      server.embedReply = wire.path === "/api/embed"
        ? { body: { model: "m", embeddings: [[0.1, 0.2]] } }
        : { body: { data: [{ embedding: [0.1, 0.2], index: 0 }] } };
      let error = await failure(model.embed(["a", "b"]));
      assert.match(error.message, /answered with 1 vectors for 2 texts \(model nomic-embed-text/);
      server.embedReply = { body: "<html>gateway</html>", contentType: "text/html" };
      error = await failure(model.embed(["a"]));
      assert.match(
        error.message,
        /answered 200 with a body that is not JSON: <html>gateway<\/html>/,
      );
      server.embedReply = { body: "", misbehave: "endless" };
      error = await failure(model.embed(["a"]));
      assert.match(error.message, /sent more than 1 MiB \(llm\.max_response_mib\)/);
    } finally {
      await server.close();
    }
  });
}

Deno.test("recorded Ollama shapes: /api/embed multi, and an embedding model that is not installed", async () => {
  const server = FakeLlmServer.start();
  try {
    const { model } = embedder({ base_url: server.url, embedding_model: "all-minilm" });
    server.embedReply = fixtureReply("ollama_api_embed_multi.docs.json");
    const vectors = await model.embed(["Why is the sky blue?", "Why is the grass green?"]);
    assert.deepEqual(vectors, (fixture("ollama_api_embed_multi.docs.json") as any).embeddings);
    server.embedReply = fixtureReply("ollama_api_error_model_not_found.synth.json", 404);
    const error = await failure(model.embed(["x"]));
    assert.equal(error.kind, "model_not_found");
    assert.match(error.message, /ollama pull all-minilm/);
  } finally {
    await server.close();
  }
});

Deno.test("OpenAI answers are put back in index order; 70 texts go in two requests", async () => {
  const server = FakeLlmServer.start();
  try {
    const { model } = embedder({ base_url: `${server.url}/v1` });
    server.embedReply = {
      body: {
        object: "list",
        data: [{ embedding: [0, 1], index: 1 }, { embedding: [1, 0], index: 0 }],
        model: "m",
      },
    };
    assert.deepEqual(await model.embed(["first", "second"]), [[1, 0], [0, 1]]);
    server.embedReply = undefined;
    const texts = Array.from({ length: 70 }, (_, index) => `text ${index}`);
    const vectors = await model.embed(texts);
    assert.equal(vectors.length, 70);
    assert.deepEqual(vectors[69], fakeEmbedding("text 69"));
    assert.equal(server.requests.filter((request) => request.path === "/v1/embeddings").length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("createEmbeddingModel: none when unset; an own server with its own wire format", async () => {
  assert.equal(
    createEmbeddingModel(defaultConfig().llm, {
      fetch,
      logger: silentLogger,
      sleep: () => Promise.resolve(),
    }),
    undefined,
  );
  const chat = FakeLlmServer.start();
  const embeddings = FakeLlmServer.start();
  try {
    const { model } = embedder({
      base_url: chat.url,
      embedding_base_url: `${embeddings.url}/v1`,
    });
    await model.embed(["hello"]);
    assert.equal(chat.requests.length, 0);
    assert.equal(embeddings.requests[0].path, "/v1/embeddings");
    const { model: sameServer } = embedder({ base_url: `${chat.url}/v1`, provider: "openai" });
    await sameServer.embed(["hello"]);
    assert.equal(chat.requests[0].path, "/v1/embeddings");
  } finally {
    await chat.close();
    await embeddings.close();
  }
});
