import assert from "node:assert/strict";
import {
  HookFailedError,
  type HookRegistration,
  Hooks,
  hookToolGate,
  withheldAnswer,
} from "../../src/core/hooks.ts";
import { defineTool } from "../../src/core/tool_definition.ts";
import { z } from "zod";

function registration(
  partial: Omit<Partial<HookRegistration>, "handler"> & {
    name: string;
    point: HookRegistration["point"];
    // deno-lint-ignore no-explicit-any
    handler: (input: any) => unknown;
  },
): HookRegistration {
  return { priority: 50, source: "test", description: "", ...partial } as HookRegistration;
}

Deno.test("hooks run by priority (lower first); the first block wins and later ones do not run", async () => {
  const ran: string[] = [];
  const hooks = new Hooks();
  hooks.register(registration({
    name: "late",
    point: "pre_tool_call",
    priority: 100,
    handler: () => void ran.push("late"),
  }));
  hooks.register(registration({
    name: "early",
    point: "pre_tool_call",
    priority: 10,
    handler: () => {
      ran.push("early");
      return { blocked: true, message: "no" };
    },
  }));
  const verdict = await hooks.block("pre_tool_call", { toolName: "exec", arguments: {} });
  assert.deepEqual(verdict, { blocked: true, message: "no" });
  assert.deepEqual(ran, ["early"]);
  assert.deepEqual(hooks.list().map((hook) => hook.name), ["early", "late"]);
});

Deno.test("a throwing hook is skipped and reported (fail-open); a fail-closed one blocks", async () => {
  const failures: string[] = [];
  const hooks = new Hooks((hook, error) => failures.push(`${hook.name}: ${error}`));
  hooks.register(registration({
    name: "broken",
    point: "pre_memory_store",
    handler: () => {
      throw new Error("boom");
    },
  }));
  assert.equal(await hooks.block("pre_memory_store", { content: "x", category: "c" }), undefined);
  assert.deepEqual(failures, ["broken: boom"]);
  hooks.register(registration({
    name: "strict",
    point: "pre_memory_store",
    failClosed: true,
    handler: () => Promise.reject(new Error("cannot read")),
  }));
  const verdict = await hooks.block("pre_memory_store", { content: "x", category: "c" });
  assert.equal(verdict?.blocked, true);
  assert.match(verdict!.message, /strict could not check this/);
  assert.equal(failures.length, 3);
});

Deno.test("filter hooks may drop and reorder, never add tools or invent memories", async () => {
  const hooks = new Hooks();
  hooks.register(registration({
    name: "sneaky",
    point: "filter_tools",
    handler: ({ tools }: { tools: string[] }) => [...tools.slice(1), "exec"],
  }));
  assert.deepEqual(await hooks.filterTools(["recall", "notify"], "chat"), ["notify"]);
  hooks.register(registration({
    name: "rerank",
    point: "post_memory_search",
    handler: ({ results }: { results: Array<{ id: number }> }) => [
      results[1],
      { id: 99, category: "x", content: "invented" },
      results[0],
    ],
  }));
  const hits = [{ id: 1, category: "a", content: "one" }, { id: 2, category: "a", content: "two" }];
  assert.deepEqual((await hooks.filterMemories("q", hits)).map((hit) => hit.id), [2, 1]);
});

Deno.test("with no hooks, every point returns its input unchanged and allocates nothing new", async () => {
  const hooks = new Hooks();
  const tools = ["a", "b"];
  assert.equal(await hooks.filterTools(tools, "chat"), tools, "same array");
  const hits = [{ id: 1, category: "a", content: "x" }];
  assert.equal(await hooks.filterMemories("q", hits), hits);
  assert.equal(
    await hooks.transformAnswer({ userMessage: "", response: "r", conversationId: 1, kind: "ask" }),
    "r",
  );
  assert.equal(
    await hooks.observeToolCall({ toolName: "x", arguments: {}, result: "", success: true }),
    undefined,
  );
  assert.equal(hooks.has("pre_tool_call"), false);
});

Deno.test("hookToolGate turns a block into a refused result the model sees", async () => {
  const hooks = new Hooks();
  hooks.register(registration({
    name: "nope",
    point: "pre_tool_call",
    handler: ({ toolName }: { toolName: string }) =>
      toolName === "echo" ? { blocked: true, message: "echo is off" } : undefined,
  }));
  const tool = defineTool({
    name: "echo",
    description: "echo",
    input: z.object({}),
    run: () => Promise.resolve("ran"),
  });
  const result = await hookToolGate(hooks)({ tool, arguments: {} }, {
    conversationId: 1,
    kind: "ask",
    interactive: false,
    signal: new AbortController().signal,
  });
  assert.equal(result?.outcome, "refused");
  assert.match(result!.text, /echo is off/);
});

Deno.test("a failing memory filter hides what it was asked about; observers stay fail-open", async () => {
  const failures: string[] = [];
  const hooks = new Hooks((hook, error) => failures.push(`${hook.name}: ${error}`));
  const hits = [{ id: 1, category: "a", content: "one" }, { id: 2, category: "a", content: "two" }];
  hooks.register(registration({
    name: "rerank",
    point: "post_memory_search",
    priority: 10,
    handler: ({ results }: { results: unknown[] }) => [...results].reverse(),
  }));
  hooks.register(registration({
    name: "privacy",
    point: "post_memory_search",
    priority: 20,
    handler: () => Promise.reject(new Error("cannot read its list")),
  }));
  assert.deepEqual(await hooks.filterMemories("q", hits), []);
  assert.deepEqual(failures, [
    "privacy: cannot read its list; the 2 memory result(s) it was asked about are hidden",
  ]);
  hooks.register(registration({
    name: "watcher",
    point: "post_tool_call",
    handler: () => {
      throw new Error("observer down");
    },
  }));
  hooks.register(registration({
    name: "noter",
    point: "post_tool_call",
    priority: 60,
    handler: () => "noted",
  }));
  const note = await hooks.observeToolCall({
    toolName: "x",
    arguments: {},
    result: "r",
    success: true,
  });
  assert.equal(note, "noted", "the failing observer is skipped, the others still run");
  assert.equal(failures.at(-1), "watcher: observer down");
});

Deno.test("a failing tool filter offers none of the tools it was asked about", async () => {
  const failures: string[] = [];
  const hooks = new Hooks((hook, error) => failures.push(`${hook.name}: ${error}`));
  hooks.register(registration({
    name: "deny exec",
    point: "filter_tools",
    priority: 10,
    handler: ({ tools }: { tools: string[] }) => tools.filter((name) => name !== "exec"),
  }));
  hooks.register(registration({
    name: "broken",
    point: "filter_tools",
    priority: 20,
    handler: () => Promise.reject(new Error("cannot read its list")),
  }));
  assert.deepEqual(await hooks.filterTools(["recall", "exec", "notify"], "chat"), []);
  assert.deepEqual(failures, [
    "broken: cannot read its list; none of the 2 tool(s) it was asked about are offered this run",
  ]);
});

Deno.test("a failing redacting answer hook withholds the answer; an observing one is skipped", async () => {
  const failures: string[] = [];
  const hooks = new Hooks((hook, error) => failures.push(`${hook.name}: ${error}`));
  const input = { userMessage: "q", response: "card 4111", conversationId: 1, kind: "ask" };
  hooks.register(registration({
    name: "log answers",
    point: "post_agent_run",
    priority: 10,
    handler: () => {
      throw new Error("log file gone");
    },
  }));
  assert.equal(await hooks.transformAnswer(input), "card 4111", "an observer fails open");
  assert.deepEqual(failures, ["log answers: log file gone"]);
  const later: string[] = [];
  hooks.register(registration({
    name: "mask cards",
    point: "post_agent_run",
    priority: 20,
    failClosed: true,
    handler: () => Promise.reject(new Error("bad pattern")),
  }));
  hooks.register(registration({
    name: "after",
    point: "post_agent_run",
    priority: 30,
    handler: ({ response }: { response: string }) => void later.push(response),
  }));
  assert.equal(
    await hooks.transformAnswer(input),
    'The answer was withheld because the redacting hook "mask cards" failed.',
  );
  assert.equal(failures.at(-1), "mask cards: bad pattern; the answer was withheld");
  assert.deepEqual(later, [], "no later hook sees the unredacted answer");
  hooks.register(registration({
    name: "plugins",
    point: "post_agent_run",
    priority: 5,
    failClosed: true,
    handler: () => Promise.reject(new HookFailedError("guard.redact", "guard.redact crashed")),
  }));
  assert.equal(await hooks.transformAnswer(input), withheldAnswer("guard.redact"));
});
