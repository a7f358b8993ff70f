/** Conversation views: messages, assistant answers in safe Markdown, expandable tool calls. */
import type { StoredMessage } from "../../src/core/ports.ts";
import type { ToolOutcome } from "../../src/core/tool.ts";
import { Markdown } from "./markdown.tsx";
import { formatDuration, formatTime, prettyArguments } from "./format.ts";

/** One tool call as shown: what was asked, what came back. */
export interface ToolCallDisplay {
  name: string;
  argumentsText: string;
  resultText?: string;
  outcome?: ToolOutcome;
  durationMs?: number;
  /** Still running. */
  running?: boolean;
}

const outcomeLabels: Record<ToolOutcome, string> = {
  ok: "ok",
  error: "failed",
  refused: "refused",
  timeout: "timed out",
};

/**
 * Guesses a stored tool result's outcome from the registry's fixed wording (the messages table
 * keeps the text only; the audit trail keeps the exact outcome).
 */
function inferOutcome(name: string, text: string): ToolOutcome {
  if (/^(Refused|Blocked|Not allowed|Denied)\b/i.test(text)) return "refused";
  if (/^(Unknown tool "|Invalid arguments for )/.test(text) || text.startsWith(`${name} failed:`)) {
    return "error";
  }
  if (/^Timed out\b/i.test(text)) return "timeout";
  return "ok";
}

/** A conversation's recorded tool outcomes, oldest first (from the audit trail). */
export type RecordedOutcome = { tool: string; outcome: ToolOutcome };

/**
 * Pairs tool result messages with the audit trail's exact outcomes. Both are written in the
 * same order by the agent loop; retention prunes the oldest audit rows, so the two lists are
 * aligned from the newest end while the tool names agree. Unpaired results fall back to
 * `inferOutcome`.
 */
export function pairOutcomes(
  messages: StoredMessage[],
  recorded: RecordedOutcome[],
): Map<StoredMessage, ToolOutcome> {
  const results = messages.filter((message) => message.role === "tool");
  const paired = new Map<StoredMessage, ToolOutcome>();
  let index = results.length - 1;
  let row = recorded.length - 1;
  while (index >= 0 && row >= 0 && results[index].toolName === recorded[row].tool) {
    paired.set(results[index], recorded[row].outcome);
    index--;
    row--;
  }
  return paired;
}

/** One expandable tool call; failures and refusals open by default and are marked. */
function ToolCallView(props: { call: ToolCallDisplay }) {
  const { call } = props;
  const outcome = call.running ? "running" : call.outcome ?? "ok";
  const label = call.running ? "running…" : outcomeLabels[call.outcome ?? "ok"];
  return (
    <details
      class={`tool-call outcome-${outcome}`}
      open={outcome !== "ok" && outcome !== "running"}
    >
      <summary>
        <span class="tool-name">{call.name}</span>
        <span class={`badge outcome-${outcome}`}>{label}</span>
        {call.durationMs !== undefined
          ? <span class="muted">{formatDuration(call.durationMs)}</span>
          : null}
      </summary>
      <div class="tool-detail">
        <div class="label">arguments</div>
        <pre>{prettyArguments(call.argumentsText)}</pre>
        {call.resultText !== undefined
          ? (
            <>
              <div class="label">result</div>
              <pre>{call.resultText}</pre>
            </>
          )
          : null}
      </div>
    </details>
  );
}

/** A list of tool calls. */
export function ToolCalls(props: { calls: ToolCallDisplay[] }) {
  if (!props.calls.length) return null;
  return <div class="tool-calls">{props.calls.map((call) => <ToolCallView call={call} />)}</div>;
}

/** A user message bubble (`at`: when it was sent, shown in `timeZone`). */
export function UserMessage(props: { content: string; at?: string; timeZone?: string }) {
  return (
    <div class="message user">
      <div class="role">
        You {props.at ? <span class="muted">{formatTime(props.at, props.timeZone)}</span> : null}
      </div>
      <div class="content plain">{props.content}</div>
    </div>
  );
}

/**
 * Every message of a conversation, tool results paired with the calls that asked for them and
 * marked with the audit trail's outcome when `outcomes` are given.
 */
export function Messages(
  props: { messages: StoredMessage[]; outcomes?: RecordedOutcome[]; timeZone: string | undefined },
) {
  const exact = pairOutcomes(props.messages, props.outcomes ?? []);
  const outcomeOf = (message: StoredMessage, name: string) =>
    exact.get(message) ?? inferOutcome(name, message.content);
  const results = new Map<string, StoredMessage>();
  for (const message of props.messages) {
    if (message.role === "tool" && message.toolCallId) results.set(message.toolCallId, message);
  }
  const paired = new Set<StoredMessage>();
  const out = [];
  for (const message of props.messages) {
    if (message.role === "user") {
      out.push(
        <UserMessage content={message.content} at={message.createdAt} timeZone={props.timeZone} />,
      );
    } else if (message.role === "assistant") {
      const calls: ToolCallDisplay[] = (message.toolCalls ?? []).map((call) => {
        const result = results.get(call.id);
        if (result) paired.add(result);
        return {
          name: call.name,
          argumentsText: call.arguments,
          resultText: result?.content,
          outcome: result ? outcomeOf(result, call.name) : undefined,
        };
      });
      out.push(
        <div class="message assistant">
          <div class="role">
            Radar <span class="muted">{formatTime(message.createdAt, props.timeZone)}</span>
            {message.usage
              ? (
                <span class="muted">
                  · {message.usage.promptTokens}+{message.usage.completionTokens} tokens
                </span>
              )
              : null}
            {message.durationMs !== undefined
              ? <span class="muted">· {formatDuration(message.durationMs)}</span>
              : null}
          </div>
          {message.content ? <Markdown text={message.content} /> : null}
          <ToolCalls calls={calls} />
        </div>,
      );
    } else if (message.role === "tool" && !paired.has(message)) {
      out.push(
        <ToolCallView
          call={{
            name: message.toolName ?? "tool",
            argumentsText: "",
            resultText: message.content,
            outcome: outcomeOf(message, message.toolName ?? ""),
          }}
        />,
      );
    } else if (message.role === "system") {
      out.push(
        <details class="message system">
          <summary>system prompt</summary>
          <pre>{message.content}</pre>
        </details>,
      );
    }
  }
  return <div class="messages">{out}</div>;
}
