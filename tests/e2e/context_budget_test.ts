/**
 * The context budget is a guarantee, over real HTTP to the fake Ollama server with
 * `llm.max_context_tokens: 4096`: a 40 KB piped document, a long tool result and a long chat each
 * send only requests that fit 4,096 tokens (counted with a safe upper bound: UTF-8 bytes / 3 of
 * the messages and tools as sent), the document's answer is built from all of it (or says the
 * share read), and a request that cannot fit is refused in one line with nothing sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import {
  fixtureReply,
  ollamaText,
  ollamaToolCall,
  openAiText,
  psReply,
  type RecordedRequest,
} from "../fakes/fake_llm_server.ts";
import { chatTurn, seedConversation, withFakeLlmHome } from "../helpers/fake_llm_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";

type Body = {
  messages: Array<{ role: string; content: string }>;
  tools: unknown[];
  options?: { num_ctx: number };
};

const window = 4096;
const yaml = `llm:\n  retries: 0\n  max_context_tokens: ${window}\nplugins:\n  enabled: false\n`;

/** A safe upper bound of a request's tokens: every BPE token of English text and JSON holds ≥ 3 bytes. */
function upperBound(request: RecordedRequest): number {
  const body = request.body as Body;
  const sent = JSON.stringify({ messages: body.messages, tools: body.tools });
  return Math.ceil(new TextEncoder().encode(sent).length / 3);
}

function assertAllFit(requests: RecordedRequest[]) {
  assert.ok(requests.length > 0);
  for (const request of requests) {
    const body = request.body as Body;
    assert.ok(upperBound(request) <= window, `a request of ≤ ${upperBound(request)} tokens`);
    assert.ok((body.options?.num_ctx ?? 0) <= window, `num_ctx ${body.options?.num_ctx}`);
  }
}

/** A 40 KB report: numbered paragraphs, each with one fact the answer must come from. */
function document(): string {
  const paragraphs: string[] = [];
  for (let index = 1; paragraphs.join("\n\n").length < 40_000; index++) {
    paragraphs.push(
      `Section ${index}. The warehouse in Ghent counted crate batch B${index} on 2026-03-${
        String(1 + index % 28).padStart(2, "0")
      }: ${index * 7} crates arrived, ${index % 5} were damaged, and the supplier promised a ` +
        `credit note. The team lead wrote that the schedule holds and that nothing else changed ` +
        `this week, apart from the usual paperwork for the customs office.`,
    );
  }
  return paragraphs.join("\n\n");
}

const isMap = (body: Body) => body.messages[0].content.startsWith("You read one part");
const isMerge = (body: Body) => body.messages[0].content.startsWith("You merge notes");

/** A stand-in that writes notes naming the batches it saw, merges them, and answers from them. */
function reader(failOnPart?: number) {
  return (request: RecordedRequest) => {
    const body = request.body as Body;
    const user = body.messages.at(-1)!.content;
    if (isMap(body)) {
      const part = Number(user.match(/Part (\d+) of/)![1]);
      if (part === failOnPart) return fixtureReply("ollama_api_error_generic.docs.json", 500);
      const batches = [...user.matchAll(/batch (B\d+)/g)].map((match) => match[1]);
      return ollamaText(`Part ${part}: batches ${batches[0]}-${batches.at(-1)} arrived.`);
    }
    if (isMerge(body)) {
      const ranges = [...user.matchAll(/batches (B\d+-B\d+)/g)].map((match) => match[1]);
      return ollamaText(`batches ${ranges.join(" ")}`);
    }
    const ranges = [...user.matchAll(/B\d+-B\d+/g)].map((match) => match[0]);
    return ollamaText(`Summary from ${ranges.join(", ")}.`);
  };
}

Deno.test("a 40 KB piped document is read whole in parts, every request within 4,096 tokens", async () => {
  await withFakeLlmHome({ prefix: "radar-budget-doc-", yaml }, async (home) => {
    const text = document();
    home.server.reply(...Array.from({ length: 60 }, () => reader()));
    const io = memoryIo(home.env, { cwd: home.folder, stdin: text });
    assert.equal(await runCli(["ask", "summarize this document"], io), 0, io.err.join(""));
    const requests = home.server.chatRequests;
    assertAllFit(requests);
    const maps = requests.filter((request) => isMap(request.body as Body));
    assert.ok(maps.length >= 4, `${maps.length} parts`);
    // Every character of the document went to the model, in order, once.
    const parts = maps.map((request) => {
      const user = (request.body as Body).messages[1].content;
      return user.slice(user.indexOf('">\n') + 3, user.lastIndexOf("\n</"));
    });
    assert.equal(parts.join(""), text);
    const last = requests.at(-1)!.body as Body;
    assert.ok(last.tools.length > 0, "the answer comes from the normal loop, tools offered");
    assert.match(last.messages.at(-1)!.content, /Radar read all of it in \d+ parts/);
    const answer = io.out.join("");
    const batches = text.match(/batch B\d+/g)!.length;
    assert.match(answer, new RegExp(`^Summary from B1-.*B${batches}\\.\\n$`));
    assert.doesNotMatch(answer, /Radar read \d+ of/, "a whole read needs no share line");
  });
});

Deno.test("a document the server fails on half-way: the answer says the share that was read", async () => {
  await withFakeLlmHome({ prefix: "radar-budget-share-", yaml }, async (home) => {
    const text = document();
    home.server.reply(...Array.from({ length: 60 }, () => reader(3)));
    const io = memoryIo(home.env, { cwd: home.folder, stdin: text });
    assert.equal(await runCli(["ask", "--json", "summarize this document"], io), 0);
    assertAllFit(home.server.chatRequests);
    const record = JSON.parse(io.out.join(""));
    assert.equal(record.reading.partsRead, 2);
    assert.equal(record.reading.whole, false);
    assert.ok(record.reading.read < text.length && record.reading.read > 0);
    const last = home.server.chatRequests.at(-1)!.body as Body;
    assert.match(
      last.messages.at(-1)!.content,
      /Radar read only \d+ of \d+ characters \(\d+ %\), in 2 of \d+ parts \(the model server failed on part 3/,
    );
    const plain = memoryIo(home.env, { cwd: home.folder, stdin: text });
    home.server.reply(...Array.from({ length: 60 }, () => reader(3)));
    assert.equal(await runCli(["ask", "summarize this document"], plain), 0);
    assert.match(
      plain.out.join(""),
      /\n\(Radar read \d+ of \d+ characters of the piped input \(\d+ %, 2 of \d+ parts\)\.\)\n$/,
    );
  });
});

Deno.test("a long tool result is cut to the room left, and the model is told how much it sees", async () => {
  await withFakeLlmHome({ prefix: "radar-budget-tool-", yaml }, async (home) => {
    const path = join(home.folder, "big.txt");
    Deno.writeTextFileSync(path, document());
    home.server.reply(ollamaToolCall("read_file", { path }), ollamaText("It is a crate report."));
    const io = memoryIo(home.env, { cwd: home.folder });
    assert.equal(await runCli(["ask", "--json", `read ${path} and tell me what it is`], io), 0);
    assertAllFit(home.server.chatRequests);
    const second = home.server.chatRequests[1].body as Body;
    const result = second.messages.find((message) => message.role === "tool")!.content;
    assert.match(
      result,
      /Radar cut this result to fit the model's context: the first \d+ of \d+ characters are shown/,
    );
    const record = JSON.parse(io.out.join(""));
    assert.ok(record.warnings.some((line: string) => /cut the result of read_file/.test(line)));
  });
});

Deno.test("a long chat leaves out its oldest turns, each request within 4,096 tokens", async () => {
  await withFakeLlmHome({ prefix: "radar-budget-chat-", yaml }, async (home) => {
    await home.withRadar(async (radar) => {
      const long = (turn: number) =>
        `turn ${turn}: ${"a long remark about the garden. ".repeat(40)}`;
      const id = seedConversation(
        radar,
        Array.from({ length: 20 }, (_, turn) => ({
          role: turn % 2 ? "assistant" as const : "user" as const,
          content: long(turn),
        })),
      );
      home.server.reply(ollamaText("Noted."));
      const { result } = await chatTurn(radar, "and what about the roses?", {
        conversationId: id,
      });
      assertAllFit(home.server.chatRequests);
      assert.equal(result.answer, "Noted.");
      assert.ok(result.warnings.some((line) => /left out the \d+ oldest message/.test(line)));
      const sent = home.server.chatRequests[0].body as Body;
      assert.match(sent.messages.at(-1)!.content, /and what about the roses\?$/);
      assert.ok(sent.messages.some((message) => /turn 19:/.test(message.content)), "newest kept");
    });
  });
});

Deno.test("a request that cannot fit the context is refused in one line, nothing sent", async () => {
  const small = yaml.replace(`${window}`, "2048");
  await withFakeLlmHome({ prefix: "radar-budget-refuse-", yaml: small }, async (home) => {
    const io = memoryIo(home.env, { cwd: home.folder });
    assert.equal(await runCli(["ask", "hello"], io), 1);
    const error = io.err.join("");
    assert.match(error, /^radar: This request needs about \d+ tokens .* Nothing was sent\.\n$/);
    assert.equal(home.server.chatRequests.length, 0);
  });
});

Deno.test("over /v1 Radar fits requests to the context the server loaded (/api/ps), unasked", async () => {
  const v1 = "llm:\n  retries: 0\n  provider: openai\nplugins:\n  enabled: false\n";
  await withFakeLlmHome({ prefix: "radar-budget-v1-", yaml: v1 }, async (home) => {
    home.server.ps = psReply("qwen2.5:14b", window);
    await home.withRadar(async (radar) => {
      const id = seedConversation(
        radar,
        Array.from({ length: 20 }, (_, turn) => ({
          role: turn % 2 ? "assistant" as const : "user" as const,
          content: `turn ${turn}: ${"a long remark about the garden. ".repeat(40)}`,
        })),
      );
      home.server.reply(openAiText("Noted."));
      const { result } = await chatTurn(radar, "and the roses?", { conversationId: id });
      assert.equal(result.answer, "Noted.");
      const [request] = home.server.chatRequests;
      assert.equal(request.path, "/v1/chat/completions");
      assert.ok(upperBound(request) <= window, `≤ ${upperBound(request)} tokens`);
      assert.ok(result.warnings.some((line) => /\(4096 tokens, \/api\/ps\)/.test(line)));
    });
  });
});
