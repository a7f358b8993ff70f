/** Conversation summaries (migration 015) with FTS5 search and vectors like facts'. */
import type { DatabaseSync } from "node:sqlite";
import type {
  SummaryCandidate,
  SummaryRecord,
  SummaryStore,
} from "../../core/conversation_summary.ts";
import { cosineSimilarity } from "../../core/embedding_model.ts";
import type { RecallVectors } from "../../core/recall.ts";
import { toFtsQuery } from "./fact_store.ts";
import { statement } from "./statements.ts";
import { write } from "./write.ts";

interface SummaryRow {
  conversation_id: number;
  title: string;
  content: string;
  last_message_id: number;
  message_count: number;
  conversation_at: string;
  summarized_at: string;
}

function toRecord(row: SummaryRow): SummaryRecord {
  return {
    conversationId: Number(row.conversation_id),
    title: row.title,
    content: row.content,
    lastMessageId: Number(row.last_message_id),
    messageCount: Number(row.message_count),
    conversationAt: row.conversation_at,
    summarizedAt: row.summarized_at,
  };
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
    const row = statement(
      this.db,
      "SELECT * FROM conversation_summaries WHERE conversation_id = ?",
    ).get(conversationId) as SummaryRow | undefined;
    return row && toRecord(row);
  }

  /** FTS5 over titles and summaries, best first. */
  search(query: string, limit: number): SummaryRecord[] {
    const fts = toFtsQuery(query);
    if (!fts) return [];
    const rows = statement(
      this.db,
      `SELECT s.* FROM (SELECT rowid, rank FROM conversation_summaries_fts
         WHERE conversation_summaries_fts MATCH ? ORDER BY rank LIMIT ?) AS hit
       JOIN conversation_summaries s ON s.conversation_id = hit.rowid ORDER BY hit.rank`,
    ).all(fts, Math.min(limit, 50)) as unknown as SummaryRow[];
    return rows.map(toRecord);
  }
}

/** Float32 bytes → numbers (undefined for a damaged blob). */
function toVector(bytes: Uint8Array): number[] | undefined {
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  const copy = bytes.slice();
  return [...new Float32Array(copy.buffer, 0, copy.byteLength / 4)];
}

/** Summary vectors by embedding model; stale when the summary was rewritten. */
export class SqliteSummaryEmbeddings implements RecallVectors<SummaryRecord> {
  constructor(private readonly db: DatabaseSync) {}

  /** True when no summary is stored. */
  empty(): boolean {
    return !this.db.prepare("SELECT 1 FROM conversation_summaries LIMIT 1").get();
  }

  /** Summaries without a current vector of `model`, oldest first. */
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }> {
    const rows = this.db.prepare(
      `SELECT s.conversation_id, s.title, s.content, s.summarized_at
       FROM conversation_summaries s
       LEFT JOIN summary_embeddings e ON e.conversation_id = s.conversation_id AND e.model = ?
       WHERE e.conversation_id IS NULL OR e.summarized_at <> s.summarized_at
       ORDER BY s.conversation_id LIMIT ?`,
    ).all(model, limit) as unknown as Array<SummaryRow>;
    return rows.map((row) => ({
      id: Number(row.conversation_id),
      text: `${row.title}\n${row.content}`,
      version: row.summarized_at,
    }));
  }

  /** Stores (or replaces) a summary's vector. */
  put(conversationId: number, model: string, version: string, vector: number[]): void {
    this.db.prepare(
      `INSERT OR REPLACE INTO summary_embeddings (conversation_id, model, summarized_at, vector)
       VALUES (?, ?, ?, ?)`,
    ).run(conversationId, model, version, new Uint8Array(new Float32Array(vector).buffer));
  }

  /** The nearest current summaries, best first. */
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ item: SummaryRecord; similarity: number }> {
    const rows = this.db.prepare(
      `SELECT s.*, e.vector FROM summary_embeddings e
       JOIN conversation_summaries s ON s.conversation_id = e.conversation_id
       WHERE e.model = ? AND e.summarized_at = s.summarized_at`,
    ).all(model) as unknown as Array<SummaryRow & { vector: Uint8Array }>;
    return rows.flatMap((row) => {
      const stored = toVector(row.vector);
      return stored ? [{ row, score: cosineSimilarity(vector, stored) }] : [];
    }).sort((a, b) => b.score - a.score).slice(0, limit).map(({ row, score }) => ({
      item: toRecord(row),
      similarity: score,
    }));
  }
}
