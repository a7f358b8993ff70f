import assert from "node:assert/strict";
import { estimateFirstRequestTokens } from "../../src/core/agent_loop.ts";
import { buildSystemPrompt } from "../../src/core/system_prompt.ts";
import { ToolRegistry, toolTokenCost } from "../../src/core/tool_registry.ts";
import { builtinTools } from "../../src/tools/index.ts";
import { tempHome, toolDeps } from "./tool_harness.ts";

Deno.test("the whole built-in tool set stays compact (schemas under 1200 estimated tokens)", () => {
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
      "list_directory",
      "notify",
      "pdf_extract",
      "web_search",
      "fetch_url",
      "weather",
    ]);
    const costs = tools.map((tool) => `${tool.name}=${toolTokenCost(tool)}`).join(", ");
    const total = tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
    assert.ok(total < 1200, `built-in schemas cost ~${total} tokens: ${costs}`);
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
      tasks: { add: () => ({ error: "unused" }), list: () => [], remove: () => false },
      monitors: {
        add: () => Promise.resolve({ error: "unused" }),
        list: () => [],
        remove: () => false,
      },
    });
    const tools = builtinTools(deps);
    const extra = tools.slice(11);
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
    assert.ok(total < 480, `task and monitor schemas cost ~${total} tokens: ${costs}`);
    for (const tool of extra) {
      assert.ok(!tool.alwaysOn, `${tool.name} is offered by relevance only`);
      assert.ok(tool.description.length <= 70);
    }
    const registry = new ToolRegistry();
    for (const tool of tools) registry.register(tool);
    const all = registry.select("hello", deps.config.llm.tool_budget_tokens);
    assert.equal(all.length, tools.length, "by default every built-in tool fits and is offered");
    const budget = 700;
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
