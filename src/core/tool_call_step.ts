/**
 * Step "run a tool call" of the agent loop: the one place every tool call of a run passes, in
 * order. The registry checks it was offered, parses the arguments JSON, validates them against
 * the tool's schema, asks the gates (confirmation and hook rules: a gate's result blocks the
 * call with it), runs the tool, masks and cuts the result and adds the observers' notes; every
 * failure is a result the model sees, never an exception. Then the tools the result names
 * (`find_tools`) join the offer, the call is audited, and the result is stored and sent back as
 * untrusted data. The run guard's gate comes after the hooks' (effects, the flow rule, grants); a question
 * nobody could answer now turns the call into a pending approval when it settles.
 */
import type { AgentDependencies, AgentRequest, AgentResult, RunGuard } from "./agent_types.ts";
import { asModelMessage } from "./agent_messages.ts";
import type { ChatMessage, ToolCall } from "./chat_model.ts";
import type { ToolContext } from "./tool.ts";
import { outsideToolTexts, type ToolOffer } from "./tool_offer.ts";
import { parseArgumentsText } from "./tool_registry.ts";
import { fitToolResult } from "./context_fit.ts";

/** What one run's tool calls share. */
export interface ToolCallRun {
  request: AgentRequest;
  /** The tools' view of the run (kind, confirm, signal, outbox). */
  context: ToolContext;
  offer: ToolOffer;
  /** The request's messages: the result is appended for the next model round. */
  messages: ChatMessage[];
  /** Where the user's message is in `messages` (before it: system prompt and history). */
  historyEnd: number;
  markerId: string;
  result: AgentResult;
  /** The run's guard: effects, the flow rule, grants, and who says yes (`AgentDependencies.guard`). */
  guard: RunGuard;
}

/** Runs one tool call of the model's answer and records it everywhere it belongs. */
export async function runToolCall(
  deps: AgentDependencies,
  run: ToolCallRun,
  call: ToolCall,
): Promise<void> {
  const { request } = run;
  request.onEvent?.({ type: "tool_started", name: call.name, argumentsText: call.arguments });
  run.guard.begin(call);
  const execution = await run.guard.settle(
    await deps.registry.execute(call, {
      offered: run.offer.names,
      context: run.context,
      gates: [...deps.gates ?? [], run.guard.gate],
      observers: deps.observers,
      maxResultChars: deps.settings.maxResultChars,
      elapsed: deps.elapsed,
    }),
  );
  run.guard.read(
    deps.registry.get(call.name),
    call.name,
    execution.result.text,
    argumentsOf(call.arguments),
    execution.result.label,
  );
  run.result.toolExecutions.push(execution);
  if (execution.result.offerTools?.length) {
    await run.offer.join(execution.result.offerTools);
    run.guard.readRequest(outsideToolTexts(deps.registry, run.offer.names));
  }
  request.onEvent?.({ type: "tool_finished", execution });
  deps.audit?.recordToolCall({
    at: deps.clock.now(),
    conversationId: request.conversationId,
    tool: call.name,
    arguments: call.arguments,
    durationMs: execution.durationMs,
    outcome: execution.result.outcome,
    result: execution.result.text,
  });
  const toolMessage: ChatMessage = {
    role: "tool",
    content: execution.result.text,
    toolCallId: call.id,
    toolName: call.name,
  };
  // The model sees the result fitted to its context (cut with a line saying so); stored whole.
  run.messages.push(
    await fitToolResult(
      deps.model,
      run,
      run.offer.tokens,
      {
        text: toolMessage.content,
        toolName: call.name,
        wrap: (content) => asModelMessage({ ...toolMessage, content }, run.markerId),
      },
      run.result.warnings,
      run.context.signal,
    ),
  );
  deps.store.appendMessage(request.conversationId, { ...toolMessage, createdAt: deps.clock.now() });
}

/** A call's arguments as the tool saw them (undefined when they were not an object). */
function argumentsOf(text: string): unknown {
  const parsed = parseArgumentsText(text);
  return parsed.ok ? parsed.value : undefined;
}
