/** Runs one user turn through the agent loop with progress and verbose output. */
import { runAgent } from "../core/agent_loop.ts";
import type { AgentEvent, AgentRequest, AgentResult } from "../core/agent_types.ts";
import type { ConversationKind } from "../core/tool.ts";
import type { CliContext } from "./context.ts";
import { Progress } from "./progress.ts";

/** Options of one turn. */
export interface TurnOptions {
  conversationId: number;
  kind: ConversationKind;
  message: string;
  interactive: boolean;
  confirm?: (question: string) => Promise<boolean>;
  signal?: AbortSignal;
  /** The personality of this turn (`-P`); default: the active one. */
  personality?: string;
  /** Piped input inside `message`, read in parts when it does not fit the model's context. */
  longInput?: AgentRequest["longInput"];
}

/** Runs a turn; with --verbose, prints offered tools, tokens and each tool call to stderr. */
export async function runTurn(context: CliContext, options: TurnOptions): Promise<AgentResult> {
  const radar = await context.radar();
  const verbose = context.globals().verbose ?? false;
  const progress = new Progress(context.io);
  const onEvent = (event: AgentEvent) => {
    progress.onEvent(event);
    if (verbose) printVerbose(context, event);
  };
  try {
    const { personality, ...turn } = options;
    const agent = await radar.agent(personality ? { personality } : undefined);
    return await runAgent(agent, { ...turn, userMessage: options.message, onEvent });
  } finally {
    progress.finish();
  }
}

function printVerbose(context: CliContext, event: AgentEvent): void {
  const write = context.io.stderr;
  if (event.type === "tools_offered") {
    write(
      `[tools offered: ${event.tools.join(", ")}; ~${event.estimatedPromptTokens} prompt tokens]\n`,
    );
  } else if (event.type === "model_finished") {
    const usage = event.response.usage;
    if (usage) {
      write(
        `[model: ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens]\n`,
      );
    }
    for (const warning of event.response.warnings ?? []) write(`[warning: ${warning}]\n`);
  } else if (event.type === "tool_finished") {
    const { execution } = event;
    write(
      `[tool ${execution.name} ${execution.argumentsText} → ${execution.result.outcome} in ${
        Math.round(execution.durationMs)
      } ms]\n${indent(execution.result.text)}\n`,
    );
  }
}

function indent(text: string): string {
  const shown = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  return shown.split("\n").map((line) => `    ${line}`).join("\n");
}
