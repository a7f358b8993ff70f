/** `radar tools`: every tool with its source, description and schema token cost. */
import type { Command } from "commander";
import { estimateFirstRequestTokens } from "../../core/agent_loop.ts";
import { toolTokenCost } from "../../core/tool_registry.ts";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";

/** Registers `tools`. */
export function registerTools(program: Command, context: CliContext): void {
  program.command("tools")
    .description("list tools with their source, description and token cost")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const radar = await context.radar();
      const { io } = context;
      const { registry, agent } = await radar.agentStack();
      const tools = registry.list();
      const budget = radar.config.llm.tool_budget_tokens;
      const message = "hello";
      const offered = registry.select(message, budget);
      const first = estimateFirstRequestTokens(agent().systemPrompt(), offered, message);
      if (options.json) {
        return printJson(context, {
          tools: tools.map((tool) => ({
            name: tool.name,
            source: tool.source,
            tokens: toolTokenCost(tool),
            alwaysOn: tool.alwaysOn ?? false,
            onDemand: tool.onDemand ?? false,
            description: tool.description,
          })),
          execEnabled: radar.config.tools.exec.enabled,
          firstRequest: { message, offered: offered.map((tool) => tool.name), tokens: first },
        });
      }
      const width = Math.max(4, ...tools.map((tool) => tool.name.length));
      for (const tool of tools) {
        io.stdout(
          `${tool.name.padEnd(width)}  ${tool.source.padEnd(8)} ${
            String(toolTokenCost(tool)).padStart(4)
          } tok  ${
            tool.alwaysOn ? "[always] " : tool.onDemand ? "[on demand] " : ""
          }${tool.description}\n`,
        );
      }
      if (!radar.config.tools.exec.enabled) {
        io.stdout(`${"exec".padEnd(width)}  builtin     - tok  (disabled: tools.exec.enabled)\n`);
      }
      const total = tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
      io.stdout(
        `\n${tools.length} tools, ${total} schema tokens in all. A first request ("${message}") ` +
          `offers ${offered.length} of them (llm.tool_budget_tokens ${budget}) and costs ` +
          `~${first} tokens with the system prompt.\n`,
      );
    });
}
