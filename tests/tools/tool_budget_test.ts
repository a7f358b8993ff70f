import assert from "node:assert/strict";
import { estimateFirstRequestTokens } from "../../src/core/agent_loop.ts";
import { buildSystemPrompt } from "../../src/core/system_prompt.ts";
import { toolTokenCost } from "../../src/core/tool_registry.ts";
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
