/**
 * Exports streamed a page of messages at a time: a conversation of any length is downloaded
 * without holding all its messages (or the whole document) in memory.
 */
import type { ConversationSummary, StoredMessage } from "../../src/core/ports.ts";

/** `JSON.stringify({ conversation, messages }, null, 2)`, produced one message at a time. */
export function* conversationJsonChunks(
  conversation: ConversationSummary,
  messages: Iterable<StoredMessage>,
): Generator<string> {
  const indented = (value: unknown, prefix: string) =>
    JSON.stringify(value, null, 2).replaceAll("\n", `\n${prefix}`);
  yield `{\n  "conversation": ${indented(conversation, "  ")},\n  "messages": [`;
  let first = true;
  for (const message of messages) {
    yield `${first ? "" : ","}\n    ${indented(message, "    ")}`;
    first = false;
  }
  yield first ? "]\n}" : "\n  ]\n}";
}

/** A byte stream of `chunks`, pulled as the client reads (about 64 KB per read). */
export function textStream(chunks: Iterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = "";
      while (text.length < 65_536) {
        const next = iterator.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
      }
      controller.enqueue(encoder.encode(text));
    },
    cancel() {
      iterator.return?.(undefined);
    },
  });
}
