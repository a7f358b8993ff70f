/** A conversation as a Markdown document (export). Content is quoted, not interpreted. */
import type { ConversationSummary, StoredMessage } from "../../src/core/ports.ts";

function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** Every message and tool call of a conversation as Markdown, one chunk per message (streamed). */
export function* conversationMarkdownChunks(
  conversation: ConversationSummary,
  messages: Iterable<StoredMessage>,
): Generator<string> {
  yield [
    `# ${conversation.title || `Conversation ${conversation.id}`}`,
    "",
    `- id: ${conversation.id}`,
    `- kind: ${conversation.kind}`,
    `- started: ${conversation.createdAt}`,
    `- updated: ${conversation.updatedAt}`,
    "",
  ].join("\n");
  for (const message of messages) {
    const lines: string[] = [];
    const who = message.role === "tool" ? `tool result (${message.toolName ?? "?"})` : message.role;
    lines.push(`## ${who} · ${message.createdAt}`, "");
    if (message.role === "tool" || message.role === "system") lines.push(fenced(message.content));
    else if (message.content) lines.push(message.content);
    for (const call of message.toolCalls ?? []) {
      lines.push("", `Tool call \`${call.name}\`:`, "", fenced(call.arguments));
    }
    lines.push("");
    yield "\n" + lines.join("\n");
  }
}
