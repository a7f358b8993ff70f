/**
 * The JSON Schema each built-in tool offers the model is written ahead (src/core/tool_parameters.ts,
 * `deno task docs`): the table is current, every built-in tool offers its own entry, which is
 * `compactJsonSchema` of the zod schema it offers byte for byte, and the table names no tool that
 * is not built in. The zod schema itself is built with the tool's first call and still checks it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Tool } from "../../src/core/tool.ts";
import { compactJsonSchema, offeredSchemaOf } from "../../src/core/tool_definition.ts";
import { toolParameters } from "../../src/core/tool_parameters.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { builtinTools } from "../../src/tools/index.ts";
import { findToolsTool } from "../../src/tools/find_tools.ts";
import { moneyTool } from "../../src/tools/money.ts";
import { personalityRegistry } from "../../src/personalities/personality_tools.ts";
import { createToolTool } from "../../src/plugins/create_tool.ts";
import { toolParametersModule, toolParametersPath } from "../../scripts/tool_parameters.ts";
import { fromFileUrl } from "../project/file_url.ts";
import { type TempHome, tempHome, toolDeps } from "./tool_harness.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** Every tool Radar defines with `defineTool`, each optional one enabled. */
function everyBuiltinTool(home: TempHome): Tool[] {
  // Stand-ins for the ports: building a tool reads none of them but the skills' list.
  const unused = {} as never;
  const deps = toolDeps(home, (config) => {
    config.tools.exec.enabled = true;
  }, {
    comicArchives: unused,
    tasks: unused,
    monitors: unused,
    mail: unused,
    calendar: unused,
    skills: { available: () => [] } as never,
    github: unused,
    browser: unused,
  });
  const tools = builtinTools(deps);
  const personality = personalityRegistry(new ToolRegistry(), {
    frontMatter: { name: "reader" } as never,
    dir: home.home,
    contextDocuments: [{ name: "notes", path: join(home.home, "notes.md") } as never],
  });
  return [
    ...tools,
    moneyTool({ money: unused }),
    findToolsTool(() => tools),
    personality.get("load_context")!,
    createToolTool(unused),
  ];
}

Deno.test("src/core/tool_parameters.ts is what the tools' zod schemas give (not stale)", async () => {
  const committed = Deno.readTextFileSync(join(root, toolParametersPath));
  assert.ok(
    committed === await toolParametersModule(root),
    `${toolParametersPath} is stale: run \`deno task docs\` and commit the result`,
  );
});

Deno.test("every built-in tool offers its written-ahead entry: its zod schema's compact JSON Schema, byte for byte", () => {
  const home = tempHome();
  try {
    const tools = everyBuiltinTool(home);
    const written = toolParameters as Record<string, Record<string, unknown>>;
    for (const tool of tools) {
      // The very entry of its name: converted ahead, not at start.
      assert.ok(tool.parameters === written[tool.name], `${tool.name} offers its own entry`);
      const schema = offeredSchemaOf(tool);
      assert.ok(schema, `${tool.name} is defined from a zod schema`);
      assert.equal(JSON.stringify(tool.parameters), JSON.stringify(compactJsonSchema(schema)));
    }
    // No entry for a tool that is not built in, none missing.
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(written).sort());
  } finally {
    home.dispose();
  }
});

Deno.test("a tool whose schema is built on first use still validates every call with it", () => {
  const home = tempHome();
  try {
    const byName = new Map(everyBuiltinTool(home).map((tool) => [tool.name, tool]));
    const browser = byName.get("browser")!;
    // Offered without `submit`, validated with it; a bound the offer leaves out still holds.
    assert.ok(!JSON.stringify(browser.parameters).includes("submit"));
    assert.ok(browser.parse({ action: "submit", target: "https://example.com/" }).ok);
    const tooLong = browser.parse({ action: "open", url: "x".repeat(4001) });
    assert.ok(!tooLong.ok && tooLong.error.includes("url"), JSON.stringify(tooLong));
    assert.equal(byName.get("read_email")!.parse({ account: "home", uid: 0 }).ok, false);
    assert.equal(byName.get("cancel_task")!.parse({ id: "1" }).ok, false);
    assert.equal(byName.get("list_tasks")!.parse({}).ok, true);
  } finally {
    home.dispose();
  }
});
