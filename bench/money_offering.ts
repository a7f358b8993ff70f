/**
 * Tool offering with money in use (`money.accounts` set, so the `money` tool exists): the money
 * tool is offered for money questions, the other built-in requests still get their tool, and
 * every first request stays ≤ 1,500 tokens; the budget decides what "hello" gets.
 */
import { join } from "node:path";
import type { BenchLine } from "./index.ts";
import { builtinCases, type OfferingCase } from "./tool_offering_cases.ts";
import { ManualClock } from "../src/adapters/clock.ts";
import { estimateFirstRequestTokens } from "../src/core/agent_loop.ts";
import { estimateJsonTokens } from "../src/core/context_fit.ts";
import { openRadar } from "../src/runtime/open_radar.ts";

/** Requests that need the money tool, phrased the way people ask. */
export const moneyCases: OfferingCase[] = [
  { message: "How much did I spend on groceries this month?", needs: "money" },
  { message: "What were my biggest expenses in March?", needs: "money" },
  { message: "Show my bank transactions from last week", needs: "money" },
  { message: "Did my salary arrive?", needs: "money" },
  { message: "Which subscriptions am I paying for?", needs: "money" },
  { message: "Where does my money go?", needs: "money" },
];

/** The numbers with money in use. */
export async function moneyOfferingLines(): Promise<BenchLine[]> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-money-" });
  const configPath = join(dir, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    "money:\n  accounts:\n    - name: giro\n      currency: EUR\n",
  );
  const runtime = await openRadar({
    configPath,
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock: new ManualClock(new Date("2026-11-23T09:00:00Z")),
    logLevel: "error",
  });
  try {
    const budget = runtime.config.llm.tool_budget_tokens;
    const { agent, registry } = await runtime.agentStack();
    const prompt = agent().systemPrompt();
    const tool = registry.list().find((candidate) => candidate.name === "money")!;
    const schemaTokens = estimateJsonTokens({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    });
    const cases = [...builtinCases, ...moneyCases];
    let offered = 0;
    let maxTokens = 0;
    for (const { message, needs } of cases) {
      const tools = registry.select(message, budget);
      if (tools.some((candidate) => candidate.name === needs)) offered++;
      else console.log(`  missed: ${needs} ← "${message}"`);
      maxTokens = Math.max(maxTokens, estimateFirstRequestTokens(prompt, tools, message));
    }
    const hello = registry.select("hello", budget);
    const helloTokens = estimateFirstRequestTokens(prompt, hello, "hello");
    const percent = Number((100 * offered / cases.length).toFixed(1));
    const builtins = registry.list().filter((candidate) => candidate.name !== "find_tools");
    return [
      {
        metric: "money tool schema",
        value: schemaTokens,
        unit: "tokens",
        target: "≤ 80",
        met: schemaTokens <= 80,
      },
      {
        metric:
          `needed tool offered, ${cases.length} requests (${moneyCases.length} about money), money in use`,
        value: percent,
        unit: "%",
        target: "100",
        met: percent === 100,
      },
      {
        metric: `built-in tools offered to "hello" with money in use (budget ${budget})`,
        value: hello.filter((candidate) => candidate.name !== "find_tools").length,
        unit: `of ${builtins.length}`,
      },
      {
        metric: 'first request "hello", money in use',
        value: helloTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: helloTokens <= 1500,
      },
      {
        metric: "largest first request, money in use",
        value: maxTokens,
        unit: "tokens",
        target: "≤ 1500",
        met: maxTokens <= 1500,
      },
    ];
  } finally {
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
}
