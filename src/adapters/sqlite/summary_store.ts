/** Conversation summaries (migration 015) with FTS5 search (their vectors: summary_embeddings.ts). */
import type { DatabaseSync } from "node:sqlite";
import type {
  SummaryCandidate,
  SummaryRecord,
  SummaryStore,
} from "../../core/conversation_summary.ts";
import { toFtsQuery } from "./fact_store.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { write } from "./write.ts";

/** The columns of a summary, in its record's key order. */
const summaryColumns = columnsOf<SummaryRecord>()(
  "conversation_id title content last_message_id message_count conversation_at summarized_at",
);

/** A summary row as its record. */
export function toSummaryRecord(row: Row): SummaryRecord {
  return camelRecord(row, summaryColumns);
}

/** Summaries in SQLite. */
export class SqliteSummaryStore implements SummaryStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Quiet chat conversations with enough turns whose newest message is not yet summarized. */
  candidates(quietBefore: Date, minMessages: number, limit: number): SummaryCandidate[] {
    const rows = statement(
      this.db,
      `SELECT c.id, c.title FROM conversations c
       JOIN (SELECT conversation_id, MAX(id) AS last_id, MAX(created_at) AS last_at,
               SUM(role IN ('user', 'assistant')) AS turns
             FROM messages GROUP BY conversation_id) m ON m.conversation_id = c.id
       LEFT JOIN conversation_summaries s ON s.conversation_id = c.id
       WHERE c.kind IN ('chat', 'ask') AND m.last_at < ? AND m.turns >= ?
         AND (s.conversation_id IS NULL OR s.last_message_id < m.last_id)
       ORDER BY m.last_at LIMIT ?`,
    ).all(quietBefore.toISOString(), minMessages, limit) as Array<{ id: number; title: string }>;
    return rows.map((row) => ({ conversationId: Number(row.id), title: row.title }));
  }

  /** Stores or replaces a conversation's summary. */
  put(summary: SummaryRecord): void {
    write(
      this.db,
      "the conversation summary",
      `INSERT INTO conversation_summaries (conversation_id, title, content, last_message_id,
         message_count, conversation_at, summarized_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(conversation_id) DO UPDATE SET title = excluded.title,
         content = excluded.content, last_message_id = excluded.last_message_id,
         message_count = excluded.message_count, conversation_at = excluded.conversation_at,
         summarized_at = excluded.summarized_at`,
      summary.conversationId,
      summary.title,
      summary.content,
      summary.lastMessageId,
      summary.messageCount,
      summary.conversationAt,
      summary.summarizedAt,
    );
  }

  /** One conversation's summary. */
  get(conversationId: number): SummaryRecord | undefined {
    const sql = "SELECT * FROM conversation_summaries WHERE conversation_id = ?";
    return selectOne(this.db, toSummaryRecord, sql, conversationId);
  }

  /** FTS5 over titles and summaries, best first. */
  search(query: string, limit: number): SummaryRecord[] {
    const fts = toFtsQuery(query);
    if (!fts) return [];
    const sql = `SELECT s.* FROM (SELECT rowid, rank FROM conversation_summaries_fts
         WHERE conversation_summaries_fts MATCH ? ORDER BY rank LIMIT ?) AS hit
       JOIN conversation_summaries s ON s.conversation_id = hit.rowid ORDER BY hit.rank`;
    return selectAll(this.db, toSummaryRecord, sql, fts, Math.min(limit, 50));
  }
}
