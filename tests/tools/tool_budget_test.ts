import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { estimateFirstRequestTokens } from "../../src/core/agent_loop.ts";
import { buildSystemPrompt } from "../../src/core/system_prompt.ts";
import { findToolsName, ToolRegistry, toolTokenCost } from "../../src/core/tool_registry.ts";
import { estimateTokens } from "../../src/core/context_fit.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { builtinTools } from "../../src/tools/index.ts";
import { tempHome, toolDeps } from "./tool_harness.ts";

Deno.test("the whole built-in tool set stays compact (schemas under 800 estimated tokens)", () => {
  const home = tempHome();
  try {
    const deps = toolDeps(home);
    const tools = builtinTools(deps);
    assert.deepEqual(tools.map((tool) => tool.name), [
      "remember",
      "recall",
      "exec",
      "read_file",
      "write_file",
      "move_file",
      "list_directory",
      "notify",
      "pdf_extract",
      "web_search",
      "fetch_url",
      "weather",
    ]);
    const costs = tools.map((tool) => `${tool.name}=${toolTokenCost(tool)}`).join(", ");
    const total = tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
    assert.ok(total < 800, `built-in schemas cost ~${total} tokens: ${costs}`);
    for (const tool of tools) {
      assert.ok(tool.description.length <= 70, `${tool.name} description is one short line`);
      assert.ok(!tool.description.includes("\n"));
    }
    const prompt = buildSystemPrompt({
      name: deps.config.radar.name,
      personality: deps.config.radar.personality,
      personalityNotes: [],
      now: new Date("2026-11-22T09:15:00Z"),
      timeZone: "UTC",
    });
    const first = estimateFirstRequestTokens(prompt, tools, "List the PDFs in my Downloads folder");
    assert.ok(first <= 1500, `a first request with every built-in tool costs ~${first} tokens`);
  } finally {
    home.dispose();
  }
});

Deno.test("task and monitor tools are compact, never always-on, and offered by relevance over budget", () => {
  const home = tempHome();
  try {
    const deps = toolDeps(home, () => {}, {
      tasks: {
        add: () => Promise.resolve({ error: "unused" }),
        list: () => [],
        remove: () => false,
      },
      monitors: {
        add: () => Promise.resolve({ error: "unused" }),
        list: () => [],
        remove: () => false,
      },
    });
    const tools = builtinTools(deps);
    const extra = tools.slice(12);
    assert.deepEqual(extra.map((tool) => tool.name), [
      "schedule_task",
      "list_tasks",
      "cancel_task",
      "monitor_url",
      "list_monitors",
      "remove_monitor",
    ]);
    const costs = extra.map((tool) => `${tool.name}=${toolTokenCost(tool)}`).join(", ");
    const total = extra.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
    assert.ok(total < 370, `task and monitor schemas cost ~${total} tokens: ${costs}`);
    for (const tool of extra) {
      assert.ok(!tool.alwaysOn, `${tool.name} is offered by relevance only`);
      assert.ok(tool.description.length <= 70);
    }
    const registry = new ToolRegistry();
    for (const tool of tools) registry.register(tool);
    const all = registry.select("hello", deps.config.llm.tool_budget_tokens);
    assert.equal(all.length, tools.length, "by default every built-in tool fits and is offered");
    const budget = 560;
    const offered = (message: string) => registry.select(message, budget).map((tool) => tool.name);
    const unrelated = offered("List the PDFs in my Downloads folder");
    for (const tool of extra) assert.ok(!unrelated.includes(tool.name), unrelated.join(","));
    assert.ok(offered("every Monday at 9am, summarize my week").includes("schedule_task"));
    assert.ok(offered("What is scheduled? Cancel the weekly task").includes("cancel_task"));
    assert.ok(
      offered("Watch https://shop.example/espresso for price changes").includes("monitor_url"),
    );
    for (const message of ["every Monday at 9am, summarize my week", "monitor this page"]) {
      const spent = registry.select(message, budget).reduce(
        (sum, tool) => sum + toolTokenCost(tool),
        0,
      );
      assert.ok(spent <= budget);
    }
  } finally {
    home.dispose();
  }
});

Deno.test("by default every built-in tool (use_skill too) fits the budget: a stable list, first requests ≤ 1500", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-tool-budget-" });
  const runtime = await openRadar({
    env: { HOME: home, RADAR_DATA_DIR: join(home, "data") },
    cwd: home,
    clock: new ManualClock(new Date("2026-11-23T09:00:00Z")),
    logLevel: "error",
  });
  try {
    const budget = runtime.config.llm.tool_budget_tokens;
    // On-demand tools (comic_info, the browser when one is found) come on top of the budget, only
    // where a request calls for them.
    const { registry } = await runtime.agentStack();
    const builtins = registry.list().filter((tool) =>
      tool.name !== findToolsName && !tool.onDemand
    );
    assert.ok(builtins.some((tool) => tool.name === "use_skill"), "the bundled skills are on");
    const spent = builtins.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
    assert.ok(spent <= budget, `built-in tools cost ~${spent} tokens, budget ${budget}`);
    const prompt = (await runtime.agent()).systemPrompt();
    assert.ok(estimateTokens(prompt) < 300, `system prompt ~${estimateTokens(prompt)} tokens`);
    const names = (message: string) =>
      registry.select(message, budget).map((tool) => tool.name).join(
        ",",
      );
    const messages = [
      "hello",
      "It is 09:03. Since the last check: nothing new.",
      "Summarize the PDF ~/Downloads/invoice-2026-11.pdf and remind me every Monday at 9am to pay",
    ];
    for (const message of messages) {
      assert.equal(names(message), builtins.map((tool) => tool.name).join(","), message);
      const first = estimateFirstRequestTokens(prompt, builtins, message);
      assert.ok(first <= 1500, `a first request costs ~${first} tokens: "${message}"`);
    }
    // Room for the largest plugin-ranked selection: the budget plus the prompt stays in 1500.
    assert.ok(budget + estimateTokens(prompt) + 40 <= 1500, `budget ${budget} leaves no room`);
  } finally {
    runtime.close();
    Deno.removeSync(home, { recursive: true });
  }
});
