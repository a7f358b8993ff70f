/** SQLite conversations and messages. */
import type { DatabaseSync } from "node:sqlite";
import type { ReadSources, ToolCall } from "../../core/chat_model.ts";
import type {
  ConversationArchive,
  ConversationQuery,
  ConversationSummary,
  MessagePage,
  MessageRecord,
  StoredMessage,
} from "../../core/ports.ts";
import type { ConversationKind } from "../../core/tool.ts";
import { boundedPage, maxListOffset, maxSearchChars, maxSearchHits } from "../../core/bounds.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf } from "./rows.ts";
import { insert, transaction, write } from "./write.ts";

/** Messages read at once at most (a page of `messages`, a step of `eachMessage`). */
export const maxMessagesPerPage = 500;

interface MessageRow {
  id: number;
  conversation_id: number;
  role: StoredMessage["role"];
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  duration_ms: number | null;
  created_at: string;
  read_from: string | null;
}

interface SummaryRow {
  id: number;
  kind: ConversationKind;
  title: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  interrupted_at: string | null;
}

/**
 * When the conversation's latest run was found interrupted with nothing stored after it (its
 * last message is the one it stopped at): the `interrupted_at` column of a summary query.
 */
const interruptedColumn = `(SELECT r.interrupted_at FROM conversation_runs r
           WHERE r.conversation_id = c.id AND r.state = 'interrupted'
             AND r.last_message_id IS (SELECT MAX(m.id) FROM messages m WHERE m.conversation_id = c.id)
           ORDER BY r.id DESC LIMIT 1) AS interrupted_at`;

/** The columns every message has, in its record's key order (the optional ones follow). */
const messageColumns = columnsOf<StoredMessage>()("id conversation_id role content created_at");

/** The columns every conversation summary has, in its record's key order. */
const summaryColumns = columnsOf<ConversationSummary>()(
  "id kind title created_at updated_at message_count",
);

function toMessage(row: MessageRow): StoredMessage {
  const message: StoredMessage = camelRecord(row, messageColumns);
  if (row.tool_calls) message.toolCalls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id) message.toolCallId = row.tool_call_id;
  if (row.tool_name) message.toolName = row.tool_name;
  if (row.prompt_tokens !== null || row.completion_tokens !== null) {
    message.usage = {
      promptTokens: row.prompt_tokens ?? 0,
      completionTokens: row.completion_tokens ?? 0,
    };
  }
  if (row.duration_ms !== null) message.durationMs = row.duration_ms;
  if (row.read_from) message.readFrom = readSources(row.read_from);
  return message;
}

/** Stored read sources; text that is not them counts as private reads from outside. */
function readSources(text: string): ReadSources {
  try {
    const parsed = JSON.parse(text) as Partial<ReadSources>;
    if (isTextList(parsed.untrusted) && isTextList(parsed.private)) {
      return { untrusted: parsed.untrusted, private: parsed.private };
    }
  } catch { /* below */ }
  return { untrusted: ["unreadable stored labels"], private: ["unreadable stored labels"] };
}

function isTextList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function toSummary(row: SummaryRow): ConversationSummary {
  const summary: ConversationSummary = camelRecord(row, summaryColumns);
  if (row.interrupted_at) summary.interruptedAt = row.interrupted_at;
  return summary;
}

/**
 * Turns free text into an FTS5 query that needs every word (each quoted; the index stems them,
 * so "meetings" finds "meeting"); undefined when nothing searchable is left. Whole words only:
 * prefix terms make FTS5 merge every matching doclist and cost ~20 ms per common word.
 */
export function toFtsAllWordsQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 16);
  if (!unique.length) return undefined;
  return unique.map((word) => `"${word}"`).join(" ");
}

/** Conversations and messages in SQLite; every append is committed at once. */
export class SqliteConversationStore implements ConversationArchive {
  constructor(private readonly db: DatabaseSync) {}

  /** Starts a conversation and returns its id. */
  createConversation(kind: ConversationKind, title: string, at: Date): number {
    const stamp = at.toISOString();
    return insert(
      this.db,
      "the conversation",
      "INSERT INTO conversations (kind, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
      kind,
      title.slice(0, 200),
      stamp,
      stamp,
    );
  }

  /** Gives an untitled conversation its title (a no-op once it has one). */
  titleIfUntitled(conversationId: number, title: string): void {
    this.#setTitle(conversationId, title, " AND title = ''");
  }

  /** Replaces a conversation's title. */
  retitle(conversationId: number, title: string): void {
    this.#setTitle(conversationId, title);
  }

  /** Appends a message and touches the conversation. */
  appendMessage(conversationId: number, message: MessageRecord): number {
    const stamp = message.createdAt.toISOString();
    return transaction(this.db, () => {
      const id = insert(
        this.db,
        "the message",
        `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, tool_name,
        prompt_tokens, completion_tokens, duration_ms, created_at, read_from)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        conversationId,
        message.role,
        message.content,
        message.toolCalls?.length ? JSON.stringify(message.toolCalls) : null,
        message.toolCallId ?? null,
        message.toolName ?? null,
        message.usage?.promptTokens ?? null,
        message.usage?.completionTokens ?? null,
        message.durationMs === undefined ? null : Math.round(message.durationMs),
        stamp,
        message.readFrom ? JSON.stringify(message.readFrom) : null,
      );
      write(
        this.db,
        "the message",
        "UPDATE conversations SET updated_at = ? WHERE id = ?",
        stamp,
        conversationId,
      );
      return id;
    }, "the message");
  }

  /** The last `limit` messages, oldest first. */
  recentMessages(conversationId: number, limit: number): StoredMessage[] {
    if (limit <= 0) return [];
    const rows = statement(
      this.db,
      "SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT ?",
    ).all(conversationId, limit) as unknown as MessageRow[];
    return rows.reverse().map(toMessage);
  }

  /**
   * A page of a conversation's messages, oldest first: those after message `afterId` (from the
   * start by default), at most `limit` (clamped to `maxMessagesPerPage`), so one huge
   * conversation never loads whole.
   */
  messages(conversationId: number, page: MessagePage = {}): StoredMessage[] {
    const limit = Math.max(
      1,
      Math.min(maxMessagesPerPage, Math.floor(page.limit ?? maxMessagesPerPage)),
    );
    const rows = statement(
      this.db,
      "SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?",
    ).all(conversationId, page.afterId ?? 0, limit) as unknown as MessageRow[];
    return rows.map(toMessage);
  }

  /** Every message of a conversation, oldest first, read a page at a time (exports). */
  *eachMessage(conversationId: number): Generator<StoredMessage> {
    let afterId = 0;
    for (;;) {
      const page = this.messages(conversationId, { afterId });
      yield* page;
      if (page.length < maxMessagesPerPage) return;
      afterId = page.at(-1)!.id;
    }
  }

  /** One conversation's header, or undefined. */
  conversation(id: number): ConversationSummary | undefined {
    const row = statement(
      this.db,
      `SELECT c.*, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count,
         ${interruptedColumn}
       FROM conversations c WHERE c.id = ?`,
    ).get(id) as SummaryRow | undefined;
    return row ? toSummary(row) : undefined;
  }

  /** The most recently updated conversation of a kind, or undefined. */
  latest(kind: ConversationKind): ConversationSummary | undefined {
    return this.list({ kind, limit: 1 })[0];
  }

  /**
   * Conversations, newest first, filtered and paginated. A search matches every word of the
   * query (stemmed whole words) in one message or the title, through FTS5 indexes; it looks at
   * the newest matches only (at most `maxSearchHits`), so its cost is bounded however common
   * the word.
   * The limit is clamped to `maxListLimit`; an offset past `maxListOffset` gives an empty page.
   */
  list(query: ConversationQuery): ConversationSummary[] {
    // Deeper than maxListOffset is an empty page (narrow the search instead), never a wrong one.
    if ((query.offset ?? 0) > maxListOffset) return [];
    const page = boundedPage(query.limit, query.offset);
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.kind) {
      where.push("c.kind = ?");
      params.push(query.kind);
    }
    if (query.search?.trim()) {
      const fts = toFtsAllWordsQuery(query.search.slice(0, maxSearchChars));
      if (!fts) return [];
      where.push(
        `c.id IN (
          SELECT m.conversation_id FROM messages m WHERE m.id IN (
            SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
          UNION
          SELECT rowid FROM (SELECT rowid FROM conversations_fts WHERE conversations_fts MATCH ?
            ORDER BY rowid DESC LIMIT ?))`,
      );
      // The newest matches only, enough for this page: cost grows with the page, not the table.
      const hits = Math.min(maxSearchHits, Math.max(200, (page.offset + page.limit) * 8));
      params.push(fts, hits, fts, hits);
    }
    const rows = statement(
      this.db,
      `SELECT c.*, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count,
         ${interruptedColumn}
       FROM conversations c ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY c.updated_at DESC, c.id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.limit, page.offset) as unknown as SummaryRow[];
    return rows.map(toSummary);
  }

  /** Number of conversations, optionally of one kind (kept by triggers: no table scan). */
  count(kind?: ConversationKind): number {
    const row = kind
      ? statement(
        this.db,
        "SELECT COALESCE(SUM(n), 0) AS n FROM conversation_counts WHERE kind = ?",
      )
        .get(kind)
      : statement(this.db, "SELECT COALESCE(SUM(n), 0) AS n FROM conversation_counts").get();
    return Number((row as { n: number }).n);
  }

  /** Deletes a conversation and its messages. */
  delete(id: number): boolean {
    return write(
      this.db,
      "the conversation's removal",
      "DELETE FROM conversations WHERE id = ?",
      id,
    )
      .changes > 0;
  }

  /** Sets a conversation's title (its first 200 characters) where `condition` holds too. */
  #setTitle(conversationId: number, title: string, condition = ""): void {
    const sql = `UPDATE conversations SET title = ? WHERE id = ?${condition}`;
    write(this.db, "the conversation title", sql, title.slice(0, 200), conversationId);
  }
}
