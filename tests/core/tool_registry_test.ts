import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/core/tool_definition.ts";
import {
  parseArgumentsText,
  ToolRegistry,
  toolTokenCost,
  truncateText,
} from "../../src/core/tool_registry.ts";
import { rankByRelevance } from "../../src/core/tool_relevance.ts";
import { Secrets } from "../../src/core/secrets.ts";

function tool(
  name: string,
  description: string,
  options: { alwaysOn?: boolean; keywords?: string[]; onDemand?: boolean } = {},
) {
  return defineTool({
    name,
    description,
    ...options,
    input: z.object({ path: z.string().describe("Path") }),
    run: () => Promise.resolve("ok"),
  });
}

Deno.test("defineTool() offers compact JSON Schema: no $schema, additionalProperties, lengths or defaults", () => {
  const defined = defineTool({
    name: "read_file",
    description: "Read a text file",
    input: z.object({
      path: z.string().min(1).max(4000).describe("File path"),
      limit: z.number().int().default(10).describe("Max lines"),
    }),
    run: () => Promise.resolve(""),
  });
  assert.deepEqual(defined.parse({ path: "" }).ok, false, "bounds are still enforced");
  assert.deepEqual(defined.parse({ path: "a" }), { ok: true, value: { path: "a", limit: 10 } });
  assert.deepEqual(defined.parameters, {
    type: "object",
    properties: {
      path: { type: "string", description: "File path" },
      limit: { type: "integer", description: "Max lines" },
    },
    required: ["path"],
  });
});

Deno.test("defineTool() leaves number bounds out of the schema but enforces them; keeps a parameter named like a keyword", () => {
  const defined = defineTool({
    name: "pages",
    description: "Read pages",
    input: z.object({
      first: z.number().int().min(1).max(50).optional(),
      default: z.string().max(5).optional(),
      maximum: z.number().positive().lt(9).optional(),
    }),
    run: () => Promise.resolve(""),
  });
  assert.deepEqual(defined.parameters, {
    type: "object",
    properties: {
      first: { type: "integer" },
      default: { type: "string" },
      maximum: { type: "number" },
    },
  });
  for (const bad of [{ first: 0 }, { first: 51 }, { maximum: 9 }, { maximum: 0 }]) {
    assert.equal(defined.parse(bad).ok, false, JSON.stringify(bad));
  }
  assert.deepEqual(defined.parse({ first: 50, default: "x" }), {
    ok: true,
    value: { first: 50, default: "x" },
  });
});

Deno.test("ToolRegistry.select() offers every tool when all fit, else always-on plus the most relevant", () => {
  const registry = new ToolRegistry();
  registry.register(tool("remember", "Save a fact", { alwaysOn: true }));
  registry.register(tool("pdf_extract", "Extract text from a PDF", { keywords: ["document"] }));
  registry.register(tool("notify", "Send a push notification", { keywords: ["alert"] }));
  registry.register(tool("list_directory", "List files in a folder", { keywords: ["download"] }));
  const names = (message: string, budget = 10_000) =>
    registry.select(message, budget).map((entry) => entry.name);
  const every = ["remember", "pdf_extract", "notify", "list_directory"];
  assert.deepEqual(names("hello"), every, "nothing is hidden when everything fits");
  assert.deepEqual(names("Send me a notification"), every, "in registration order, always");
  const cost = (name: string) => toolTokenCost(registry.get(name)!);
  const two = cost("remember") + cost("list_directory") + cost("pdf_extract");
  assert.deepEqual(
    names("List the PDFs in my Downloads folder", two),
    ["remember", "pdf_extract", "list_directory"],
    "over budget: the relevant ones, still in registration order",
  );
  assert.deepEqual(names("Send me a notification saying hello", two), [
    "remember",
    "pdf_extract",
    "notify",
  ], "the best match first, then the rest of the budget filled in registration order");
  assert.deepEqual(names("List the PDFs in my Downloads folder", cost("remember") + 1), [
    "remember",
  ]);
});

Deno.test("rankByRelevance() ranks name matches above description matches", () => {
  const ranked = rankByRelevance("read the file notes", [
    tool("write_file", "Write text to a file"),
    tool("read_file", "Read a text file"),
    tool("notify", "Send a notification"),
  ]);
  assert.deepEqual(ranked.map((entry) => entry.name), ["read_file", "write_file"]);
});

Deno.test("parseArgumentsText() accepts objects, empty text and double-encoded JSON only", () => {
  assert.deepEqual(parseArgumentsText(""), { ok: true, value: {} });
  assert.deepEqual(parseArgumentsText('{"a":1}'), { ok: true, value: { a: 1 } });
  assert.deepEqual(parseArgumentsText('"{\\"a\\":1}"'), { ok: true, value: { a: 1 } });
  assert.equal(parseArgumentsText("[1]").ok, false);
  assert.equal(parseArgumentsText("42").ok, false);
  assert.equal(parseArgumentsText("{oops").ok, false);
});

Deno.test("truncateText() keeps short text and notes how much was cut", () => {
  assert.equal(truncateText("abc", 5), "abc");
  assert.equal(truncateText("abcdefgh", 3), "abc\n[truncated: 5 more characters]");
});

Deno.test("ToolRegistry.execute() appends observers' notes after the cut result and ignores failing observers", async () => {
  const registry = new ToolRegistry();
  registry.register(tool("read_file", "Read a text file"));
  const seen: string[] = [];
  const execution = await registry.execute(
    { id: "1", name: "read_file", arguments: '{"path":"a"}' },
    {
      offered: new Set(["read_file"]),
      context: { kind: "ask", interactive: false, signal: new AbortController().signal },
      maxResultChars: 1,
      elapsed: () => 0,
      observers: [
        (call) => {
          seen.push(`${call.tool.name} ${call.result.outcome} ${JSON.stringify(call.arguments)}`);
          return Promise.resolve("[note one]");
        },
        () => {
          throw new Error("observer broke");
        },
        () => Promise.reject(new Error("observer rejected")),
        () => Promise.resolve(undefined),
      ],
    },
  );
  assert.deepEqual(seen, ['read_file ok {"path":"a"}']);
  assert.deepEqual(execution.result, {
    outcome: "ok",
    text: "o\n[truncated: 1 more characters]\n[note one]",
    label: "private",
  }, "a hook's note is outside text: the result is read as private");
});

Deno.test("ToolRegistry.execute() masks secrets before the cut, before observers and in their notes", async () => {
  const secret = "s3cret-value";
  const registry = new ToolRegistry({ secrets: new Secrets([secret]) });
  registry.register(defineTool({
    name: "leak",
    description: "Leaks",
    input: z.object({}),
    run: () => Promise.resolve(`key ${secret} and more`),
  }));
  const observed: string[] = [];
  const execution = await registry.execute(
    { id: "1", name: "leak", arguments: "{}" },
    {
      offered: new Set(["leak"]),
      context: { kind: "ask", interactive: false, signal: new AbortController().signal },
      // The cut falls inside the secret: masked whole first, so no prefix of it survives.
      maxResultChars: 8,
      elapsed: () => 0,
      observers: [(call) => {
        observed.push(call.result.text);
        return Promise.resolve(`note: ${secret}`);
      }],
    },
  );
  assert.deepEqual(observed, ["key ****\n[truncated: 13 more characters]"]);
  assert.equal(
    execution.result.text,
    "key ****\n[truncated: 13 more characters]\nnote: ********",
  );
});

Deno.test("an on-demand tool joins only requests that call for it, after the others, outside the budget", () => {
  const registry = new ToolRegistry();
  registry.register(tool("read_file", "Read a text file"));
  registry.register(
    tool("comic_info", "Comic metadata", { onDemand: true, keywords: ["comic", "cbz"] }),
  );
  registry.register(tool("notify", "Push a notification"));
  const names = (message: string, options = {}, budget = 1000) =>
    registry.select(message, budget, options).map((item) => item.name);
  assert.deepEqual(names("hello"), ["read_file", "notify"]);
  assert.deepEqual(names("what info is in Saga 054.cbz?"), ["read_file", "notify", "comic_info"]);
  assert.deepEqual(names("hello", { recentTools: ["comic_info"] }), [
    "read_file",
    "notify",
    "comic_info",
  ]);
  assert.deepEqual(names("hello", { onDemand: "all" }), ["read_file", "notify", "comic_info"]);
  // Its tokens do not count against the budget of the others.
  const regular = toolTokenCost(registry.get("read_file")!) +
    toolTokenCost(registry.get("notify")!);
  assert.deepEqual(names("a comic", {}, regular), ["read_file", "notify", "comic_info"]);
});
