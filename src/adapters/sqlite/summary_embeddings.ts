/** Conversation summary vectors (migration 015) for recall's search by meaning. */
import type { DatabaseSync } from "node:sqlite";
import type { SummaryRecord } from "../../core/conversation_summary.ts";
import type { Row } from "./rows.ts";
import { toSummaryRecord } from "./summary_store.ts";
import { SqliteVectorTable } from "./vector_table.ts";

/** Summary vectors by embedding model; stale when the summary was rewritten (`summarized_at`). */
export class SqliteSummaryEmbeddings extends SqliteVectorTable<Row, SummaryRecord> {
  constructor(db: DatabaseSync) {
    super(db, {
      table: "summary_embeddings",
      itemColumn: "conversation_id",
      versionColumn: "summarized_at",
      items: "conversation_summaries",
      idColumn: "conversation_id",
      itemVersionColumn: "summarized_at",
      what: "the conversation summary's vector",
      text: (row) => `${row.title}\n${row.content}`,
      toItem: toSummaryRecord,
    });
  }

  /** True when no summary is stored (then a search embeds nothing for summarys). */
  empty(): boolean {
    return this.noItems();
  }
}
