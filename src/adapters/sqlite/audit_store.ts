/** The tool audit trail in SQLite: every call recorded with secrets redacted, old rows pruned. */
import { boundedPage } from "../../core/bounds.ts";
import type { DatabaseSync } from "node:sqlite";
import type { AuditEntry, AuditTrail, Clock, Logger, ToolCallRecord } from "../../core/ports.ts";
import { silentLogger } from "../../core/ports.ts";
import { Secrets } from "../../core/secrets.ts";
import type { ToolOutcome } from "../../core/tool.ts";
import { statement } from "./statements.ts";
import { readOnlyReason, write } from "./write.ts";

/** Settings of the audit store. */
export interface AuditStoreOptions {
  /** The known secrets, never stored (absent: none known, the generic rules only). */
  secrets?: Secrets;
  retentionDays: number;
  clock: Clock;
  logger?: Logger;
  /** Characters of the result kept (default 500). */
  excerptChars?: number;
}

const day = 24 * 60 * 60 * 1000;

/** Records tool calls in the tool_calls table. */
export class SqliteAuditStore implements AuditTrail {
  #lastPrune = 0;

  constructor(private readonly db: DatabaseSync, private readonly options: AuditStoreOptions) {}

  /** Stores one call (arguments and result redacted); never throws into the agent loop. */
  recordToolCall(entry: AuditEntry): void {
    const secrets = this.options.secrets ?? new Secrets();
    const excerpt = entry.result.slice(0, this.options.excerptChars ?? 500);
    try {
      write(
        this.db,
        "the tool call record",
        `INSERT INTO tool_calls (at, conversation_id, tool, arguments, outcome, duration_ms, result,
           approval_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        entry.at.toISOString(),
        entry.conversationId ?? null,
        entry.tool,
        secrets.maskArguments(entry.arguments.slice(0, 4000)),
        entry.outcome,
        Math.round(entry.durationMs),
        secrets.mask(excerpt),
        entry.approvalId ?? null,
      );
      if (entry.at.getTime() - this.#lastPrune > day) this.prune();
    } catch (error) {
      (this.options.logger ?? silentLogger).warn("Cannot record tool call in the audit trail", {
        tool: entry.tool,
        error: (error as Error).message,
      });
    }
  }

  /**
   * Deletes rows older than the retention period; returns how many. Housekeeping: on a read-only
   * or full database it does nothing (logged at debug) so read commands still work.
   */
  prune(): number {
    const now = this.options.clock.now().getTime();
    this.#lastPrune = now;
    if (readOnlyReason(this.db)) return 0;
    const cutoff = new Date(now - this.options.retentionDays * day).toISOString();
    try {
      return write(this.db, "the audit cleanup", "DELETE FROM tool_calls WHERE at < ?", cutoff)
        .changes;
    } catch (error) {
      (this.options.logger ?? silentLogger).debug("Cannot prune the audit trail", {
        error: (error as Error).message,
      });
      return 0;
    }
  }

  /**
   * The recorded outcomes of one conversation's tool calls, oldest first (the order the agent
   * loop stored their tool messages in; retention may have pruned the oldest).
   */
  outcomesOf(conversationId: number): Array<{ tool: string; outcome: ToolOutcome }> {
    const rows = statement(
      this.db,
      "SELECT tool, outcome FROM tool_calls WHERE conversation_id = ? ORDER BY id",
    ).all(conversationId) as Array<{ tool: string; outcome: string }>;
    return rows.map((row) => ({ tool: String(row.tool), outcome: row.outcome as ToolOutcome }));
  }

  /** The newest calls first, optionally of one tool or only the failed ones. */
  list(options: { limit: number; tool?: string; failed?: boolean }): ToolCallRecord[] {
    const where: string[] = [];
    const values: Array<string | number> = [];
    if (options.tool) {
      where.push("tool = ?");
      values.push(options.tool);
    }
    if (options.failed) where.push("outcome <> 'ok'");
    const rows = statement(
      this.db,
      `SELECT id, at, conversation_id, tool, arguments, outcome, duration_ms, result, approval_id
       FROM tool_calls ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY at DESC, id DESC LIMIT ?`,
    ).all(...values, boundedPage(options.limit).limit) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      id: Number(row.id),
      at: String(row.at),
      conversationId: row.conversation_id === null ? undefined : Number(row.conversation_id),
      tool: String(row.tool),
      arguments: String(row.arguments),
      outcome: row.outcome as ToolOutcome,
      durationMs: Number(row.duration_ms),
      result: String(row.result),
      ...(row.approval_id === null ? {} : { approvalId: Number(row.approval_id) }),
    }));
  }
}
