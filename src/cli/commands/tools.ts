/** `radar tools`: every tool with its source, description and schema token cost. */
import type { Command } from "commander";
import { estimateFirstRequestTokens } from "../../core/agent_loop.ts";
import { toolTokenCost } from "../../core/tool_registry.ts";
import type { CliContext } from "../context.ts";

/** Registers `tools`. */
export function registerTools(program: Command, context: CliContext): void {
  program.command("tools")
    .description("list tools with their source, description and token cost")
    .action(async () => {
      const runtime = await context.runtime();
      const { io } = context;
      const tools = runtime.registry.list();
      const width = Math.max(4, ...tools.map((tool) => tool.name.length));
      for (const tool of tools) {
        io.stdout(
          `${tool.name.padEnd(width)}  ${tool.source.padEnd(8)} ${
            String(toolTokenCost(tool)).padStart(4)
          } tok  ${tool.alwaysOn ? "[always] " : ""}${tool.description}\n`,
        );
      }
      if (!runtime.config.tools.exec.enabled) {
        io.stdout(`${"exec".padEnd(width)}  builtin     - tok  (disabled: tools.exec.enabled)\n`);
      }
      const total = tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
      const budget = runtime.config.llm.tool_budget_tokens;
      const message = "hello";
      const offered = runtime.registry.select(message, budget);
      const prompt = runtime.agent().systemPrompt();
      const first = estimateFirstRequestTokens(prompt, offered, message);
      io.stdout(
        `\n${tools.length} tools, ${total} schema tokens in all. A first request ("${message}") ` +
          `offers ${offered.length} of them (llm.tool_budget_tokens ${budget}) and costs ` +
          `~${first} tokens with the system prompt.\n`,
      );
    });
}
