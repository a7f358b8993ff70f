/**
 * Tool offering: is the tool a plain request needs offered to the model? Measured on natural
 * requests (bench/tool_offering_cases.ts) with every built-in tool plus 50 plugin-like tools, by
 * keywords only (the case without an embedding model), and the first request's token cost; and
 * how much of a request repeats the previous one's prefix (what the server's prompt cache reuses).
 */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import {
  builtinCases,
  type OfferingCase,
  pluginCases,
  pluginTools,
} from "./tool_offering_cases.ts";
import { ManualClock } from "../src/adapters/clock.ts";
import { estimateFirstRequestTokens, runAgent } from "../src/core/agent_loop.ts";
import type { ChatRequest } from "../src/core/chat_model.ts";
import {
  ScriptedChatModel,
  textResponse,
  toolCallResponse,
} from "../tests/fakes/scripted_chat_model.ts";
import type { Tool } from "../src/core/tool.ts";
import { openRadar, type Radar } from "../src/runtime/open_radar.ts";
import type { AgentStack } from "../src/runtime/agent_stack.ts";
import { moneyOfferingLines } from "./money_offering.ts";

/** A plugin-like tool (never run by the bench). */
function pluginTool(data: (typeof pluginTools)[number]): Tool {
  return {
    name: data.name,
    description: data.description,
    keywords: data.keywords,
    source: "plugin:bench",
    parameters: {
      type: "object",
      properties: Object.fromEntries(
        data.parameters.map((name) => [name, { type: "string", description: name }]),
      ),
      required: data.parameters.slice(0, 1),
    },
    parse: (args) => ({ ok: true, value: args }),
    run: () => Promise.resolve("ok"),
  };
}

async function withRuntime<T>(work: (runtime: Radar, stack: AgentStack) => T): Promise<T> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-offering-" });
  const runtime = await openRadar({
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock: new ManualClock(new Date("2026-11-23T09:00:00Z")),
    logLevel: "error",
  });
  try {
    return work(runtime, await runtime.agentStack());
  } finally {
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** A personality note of typical length (the first request must stay ≤ 1,500 with it). */
const personalityNote = "Keep answers short: the user reads them on a phone.";

/** Share of cases whose needed tool is offered, the misses, and the largest first request. */
function measure(runtime: Radar, stack: AgentStack, cases: OfferingCase[]) {
  const budget = runtime.config.llm.tool_budget_tokens;
  const prompt = stack.agent().systemPrompt();
  const misses: string[] = [];
  let maxTokens = 0;
  for (const { message, needs } of cases) {
    const offered = stack.registry.select(message, budget);
    if (!offered.some((tool) => tool.name === needs)) misses.push(`${needs} ← "${message}"`);
    maxTokens = Math.max(maxTokens, estimateFirstRequestTokens(prompt, offered, message));
  }
  const percent = Number((100 * (cases.length - misses.length) / cases.length).toFixed(1));
  return { percent, misses, maxTokens };
}

/** The offering numbers with and without the 50 plugin tools. */
export function offeringLines(): Promise<BenchLine[]> {
  return withRuntime((runtime, stack) => {
    const { registry } = stack;
    const alone = measure(runtime, stack, builtinCases);
    const note = runtime.facts.addFact(
      { category: "personality_note", content: personalityNote },
      new Date(),
    );
    const builtinNoted = measure(runtime, stack, builtinCases);
    runtime.facts.forgetFact(note);
    const hello = measure(runtime, stack, [{ message: "hello", needs: "remember" }]).maxTokens;
    // On-demand tools (comic_info, the browser) join only the requests that call for them.
    const builtinCount = registry.list().filter((tool) =>
      tool.name !== "find_tools" && !tool.onDemand
    ).length;
    const helloCount = registry.select("hello", runtime.config.llm.tool_budget_tokens).length;
    for (const data of pluginTools) registry.register(pluginTool(data));
    const total = registry.list().length;
    const builtins = measure(runtime, stack, builtinCases);
    const plugins = measure(runtime, stack, pluginCases);
    const all = measure(runtime, stack, [...builtinCases, ...pluginCases]);
    for (const miss of all.misses) {
      console.log(`  missed: ${miss}`);
    }
    // One personality note of a typical length (what `remember` stores for "be brief").
    runtime.facts.addFact({ category: "personality_note", content: personalityNote }, new Date());
    const noted = measure(runtime, stack, [...builtinCases, ...pluginCases]);
    return [
      {
        metric: `needed tool offered, ${builtinCases.length} requests, built-in tools only`,
        value: alone.percent,
        unit: "%",
        target: "100",
        met: alone.percent === 100,
      },
      {
        metric: `needed tool offered, ${builtinCases.length} built-in requests, ${total} tools`,
        value: builtins.percent,
        unit: "%",
      },
      {
        metric: `needed tool offered, ${pluginCases.length} plugin requests, ${total} tools`,
        value: plugins.percent,
        unit: "%",
      },
      {
        metric: `needed tool offered, all ${
          builtinCases.length + pluginCases.length
        } requests, ${total} tools (keywords only)`,
        value: all.percent,
        unit: "%",
        target: "≥ 98",
        met: all.percent >= 98,
      },
      {
        metric:
          `built-in tools offered to "hello" (llm.tool_budget_tokens ${runtime.config.llm.tool_budget_tokens}, so the list changes only for on-demand tools)`,
        value: helloCount,
        unit: `of ${builtinCount}`,
        target: "all",
        met: helloCount === builtinCount,
      },
      {
        metric: 'first request "hello", built-in tools only',
        value: hello,
        unit: "tokens",
        target: "≤ 1500",
        met: hello <= 1500,
      },
      {
        metric: "largest first request, built-in tools only",
        value: alone.maxTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: alone.maxTokens <= 1500,
      },
      {
        metric: `largest first request, ${total} tools`,
        value: all.maxTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: all.maxTokens <= 1500,
      },
      {
        metric: "largest first request with one personality note, built-in tools",
        value: builtinNoted.maxTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: builtinNoted.maxTokens <= 1500,
      },
      {
        metric: `largest first request with one personality note, ${total} tools`,
        value: noted.maxTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: noted.maxTokens <= 1500,
      },
    ];
  });
}

/** A request laid out the way chat templates render it: system, tools, then the turns. */
function rendered(request: ChatRequest): string {
  return [JSON.stringify(request.messages[0]), JSON.stringify(request.tools)]
    .concat(request.messages.slice(1).map((message) => JSON.stringify(message))).join("\n");
}

/** Share (%) of `next` that repeats `previous` from the first byte on (what a prompt cache reuses). */
function prefixShare(previous: string, next: string): number {
  let same = 0;
  while (same < previous.length && same < next.length && previous[same] === next[same]) same++;
  return Number((100 * same / next.length).toFixed(1));
}

/** Prefix reuse: the second request of a chat (a minute later), and one heartbeat to the next. */
export async function prefixLines(): Promise<BenchLine[]> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-prefix-" });
  const clock = new ManualClock(new Date("2026-11-23T09:00:00Z"));
  const runtime = await openRadar({
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock,
    logLevel: "error",
  });
  try {
    const model = new ScriptedChatModel([
      toolCallResponse("list_directory", { path: "~" }),
      textResponse("Your home folder holds 3 files."),
      textResponse("Your Downloads folder holds 3 PDFs."),
      textResponse("Nothing needs attention."),
      textResponse("Still nothing."),
    ]);
    const deps = { ...await runtime.agent(), model };
    const run = async (kind: "chat" | "heartbeat", conversationId: number, message: string) => {
      clock.advance(60_000);
      await runAgent(deps, { conversationId, kind, userMessage: message, interactive: false });
    };
    const chat = runtime.conversations.createConversation("chat", "bench", clock.now());
    await run("chat", chat, "What's in my home folder?");
    await run("chat", chat, "And what's in my Downloads folder?");
    const beat = runtime.conversations.createConversation("heartbeat", "bench", clock.now());
    await run("heartbeat", beat, "It is 09:03. Since the last check: nothing new.");
    await run("heartbeat", beat, "It is 09:04. Since the last check: invoice.pdf arrived.");
    const [, first, second, tickOne, tickTwo] = model.requests.map(rendered);
    const chatShare = prefixShare(first, second);
    const beatShare = prefixShare(tickOne, tickTwo);
    return [
      {
        metric: "next turn of a chat (after a tool call): share repeating the previous request",
        value: chatShare,
        unit: "%",
        target: "≥ 90",
        met: chatShare >= 90,
      },
      {
        metric: "heartbeat request: share repeating the previous heartbeat's prefix",
        value: beatShare,
        unit: "%",
        target: "≥ 90",
        met: beatShare >= 90,
      },
    ];
  } finally {
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The suite `deno task bench` runs. */
export const toolOfferingSuite: BenchSuite = {
  name: "tool offering",
  run: async () => [
    ...await offeringLines(),
    ...await moneyOfferingLines(),
    ...await prefixLines(),
  ],
};
