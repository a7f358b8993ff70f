/** `radar history`: list conversations, show one. */
import type { Command } from "commander";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import type { ConversationKind } from "../../core/tool.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseId, parseLimit } from "../arguments.ts";
import { conversationJsonChunks } from "../../../web/views/export_stream.ts";
import { formatClock, formatDate, formatStoredTime } from "../../core/zoned_time.ts";

/**
 * A message's time in `timeZone`: "15:30:05" on the day named above it, "2026-11-24 00:30:05" when
 * the day changed (`day` holds the last day named).
 */
function messageTime(iso: string, timeZone: string | undefined, day: { shown: string }): string {
  const at = new Date(iso);
  if (isNaN(at.getTime())) return iso.slice(0, 40);
  const clock = formatClock(at, timeZone, { seconds: true });
  const date = formatDate(at, timeZone);
  if (date === day.shown) return clock;
  day.shown = date;
  return `${date} ${clock}`;
}

/** What an interrupted conversation says after its last message. */
export const interruptedNote =
  "[interrupted: the run was stopped before it finished (the process ended); nothing after this " +
  "was stored]";

/** Registers `history` and `history show ID`. */
export function registerHistory(program: Command, context: CliContext): void {
  const history = program.command("history")
    .description("list recent conversations")
    .option("-n, --limit <n>", "how many", "20")
    .option("--kind <kind>", "chat, ask, heartbeat or task")
    .option("-s, --search <text>", "only conversations containing this text")
    .option("--json", jsonOptionHelp)
    .action(async (options: { limit: string; kind?: string; search?: string; json?: boolean }) => {
      const kinds = ["chat", "ask", "heartbeat", "task"];
      if (options.kind && !kinds.includes(options.kind)) {
        throw new UsageError(`Cannot list history: --kind must be one of ${kinds.join(", ")}`);
      }
      const radar = await context.radar();
      const rows = radar.conversations.list({
        limit: parseLimit(options.limit),
        kind: options.kind as ConversationKind | undefined,
        search: options.search,
      });
      const filtered = options.search !== undefined || options.kind !== undefined;
      const empty = filtered ? "No conversation matches." : "No conversations yet.";
      const timeZone = radar.config.radar.timezone || undefined;
      await printListing(
        context,
        options.json,
        rows,
        empty,
        (row) =>
          `${String(row.id).padStart(5)}  ${formatStoredTime(row.updatedAt, timeZone)}  ${
            row.kind.padEnd(9)
          } ${String(row.messageCount).padStart(3)} msgs  ${row.title}${
            row.interruptedAt ? "  (interrupted)" : ""
          }`,
      );
    });
  history.command("show")
    .description("show every message and tool call of a conversation")
    .argument("<id>", "conversation id")
    .option("--json", jsonOptionHelp)
    // `--json` after `show` is taken by `history`'s own `--json`: read both.
    .action(async (id: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as { json?: boolean };
      const radar = await context.radar();
      const conversationId = parseId(id);
      const conversation = radar.conversations.conversation(conversationId);
      if (!conversation) {
        throw new NotFoundError(`Cannot show conversation ${id}: no such conversation`);
      }
      const messages = radar.conversations.eachMessage(conversationId);
      if (options.json) return writeChunks(context, conversationJsonChunks(conversation, messages));
      const timeZone = radar.config.radar.timezone || undefined;
      context.io.stdout(
        `#${conversation.id} ${conversation.kind} ${
          formatStoredTime(conversation.createdAt, timeZone, { zone: true })
        } ${conversation.title}\n\n`,
      );
      const created = new Date(conversation.createdAt);
      const day = { shown: isNaN(created.getTime()) ? "" : formatDate(created, timeZone) };
      for (const message of messages) {
        const head = message.role === "tool" ? `tool ${message.toolName ?? ""}` : message.role;
        context.io.stdout(
          `[${messageTime(message.createdAt, timeZone, day)}] ${head}: ${message.content}\n`,
        );
        for (const call of message.toolCalls ?? []) {
          context.io.stdout(`    → ${call.name}(${call.arguments})\n`);
        }
      }
      if (conversation.interruptedAt) context.io.stdout(`${interruptedNote}\n`);
    });
}

/**
 * Writes `chunks` to stdout in pieces of about 64 KiB, then a newline: `history show --json` of a
 * conversation of any length never holds all its messages (or the whole document) in memory.
 */
function writeChunks(context: CliContext, chunks: Iterable<string>): void {
  let pending = "";
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length >= 65_536) {
      context.io.stdout(pending);
      pending = "";
    }
  }
  context.io.stdout(`${pending}\n`);
}
