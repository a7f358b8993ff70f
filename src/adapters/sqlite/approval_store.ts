/** Pending approvals in SQLite: the exact action, why, and its fate (decided once). */
import type { DatabaseSync } from "node:sqlite";
import type {
  ApprovalChannel,
  ApprovalRecord,
  ApprovalState,
  ApprovalStore,
  PendingAction,
} from "../../away/approval_ports.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { deleteBefore, insert, transaction, write } from "./write.ts";

/** Every column but the screenshot (read on its own), and whether there is one. */
const columns = `id, key, state, tool, arguments, conversation_id, kind, reasons, tainted,
  untrusted_sources, private_sources, destinations, named_destinations, created_at, expires_at,
  decided_at, decided_via, result, outcome, grant_id, summary,
  screenshot IS NOT NULL AS has_screenshot, preview, preview_base, shown_hash`;

/** The columns of an approval, in its record's key order. */
const recordColumns = columnsOf<ApprovalRecord>()(
  `id key state tool arguments conversation_id kind reasons tainted untrusted_sources
   private_sources destinations named_destinations created_at expires_at decided_at decided_via
   result outcome grant_id summary has_screenshot preview preview_base shown_hash`,
);

function toRecord(row: Row): ApprovalRecord {
  return {
    ...camelRecord(row, recordColumns),
    reasons: JSON.parse(row.reasons as string) as string[],
    tainted: JSON.parse(row.tainted as string) as PendingAction["tainted"],
    untrustedSources: JSON.parse(row.untrusted_sources as string) as string[],
    privateSources: JSON.parse(row.private_sources as string) as string[],
    destinations: JSON.parse(row.destinations as string) as PendingAction["destinations"],
    namedDestinations: JSON.parse(row.named_destinations as string) as string[],
    hasScreenshot: Boolean(row.has_screenshot),
  };
}

/** The `approvals` table. */
export class SqliteApprovalStore implements ApprovalStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Stores a pending action; with a known key, returns the approval stored under it. */
  create(
    action: PendingAction & { shownHash: string },
    at: Date,
    expiresAt: Date,
  ): { record: ApprovalRecord; created: boolean } {
    return transaction(this.db, () => {
      const known = action.key ? this.#byKey(action.key) : undefined;
      if (known) return { record: known, created: false };
      const id = insert(
        this.db,
        "the pending approval",
        `INSERT INTO approvals (key, state, tool, arguments, conversation_id, kind, reasons, tainted,
           untrusted_sources, private_sources, destinations, named_destinations, created_at,
           expires_at, summary, screenshot, preview, preview_base, shown_hash)
         VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        action.key ?? null,
        action.tool,
        action.arguments,
        action.conversationId ?? null,
        action.kind,
        JSON.stringify(action.reasons),
        JSON.stringify(action.tainted),
        JSON.stringify(action.untrustedSources),
        JSON.stringify(action.privateSources),
        JSON.stringify(action.destinations),
        JSON.stringify(action.namedDestinations),
        at.toISOString(),
        expiresAt.toISOString(),
        action.summary ?? null,
        action.screenshot ?? null,
        action.preview ?? null,
        action.previewBase ?? null,
        action.shownHash,
      );
      return { record: this.get(id)!, created: true };
    }, "the pending approval");
  }

  /** One approval. */
  get(id: number): ApprovalRecord | undefined {
    return selectOne(this.db, toRecord, `SELECT ${columns} FROM approvals WHERE id = ?`, id);
  }

  /** The PNG stored with an approval. */
  screenshot(id: number): Uint8Array | undefined {
    const row = statement(this.db, "SELECT screenshot FROM approvals WHERE id = ?").get(id) as
      | { screenshot: Uint8Array | null }
      | undefined;
    return row?.screenshot ?? undefined;
  }

  /** Newest first. */
  list(options: { states?: readonly ApprovalState[]; limit: number }): ApprovalRecord[] {
    const states = options.states ?? [];
    const where = states.length ? `WHERE state IN (${states.map(() => "?").join(", ")})` : "";
    const sql = `SELECT ${columns} FROM approvals ${where} ORDER BY id DESC LIMIT ?`;
    return selectAll(this.db, toRecord, sql, ...states, options.limit);
  }

  /** pending and unexpired → running, once. */
  claim(id: number, at: Date, via: ApprovalChannel): ApprovalRecord | undefined {
    const changed = write(
      this.db,
      "the approval",
      `UPDATE approvals SET state = 'running', decided_at = ?, decided_via = ?
       WHERE id = ? AND state = 'pending' AND expires_at > ?`,
      at.toISOString(),
      via,
      id,
      at.toISOString(),
    ).changes;
    return changed ? this.get(id) : undefined;
  }

  /** Records what running the approved action returned. */
  finish(...[id, outcome, at]: Parameters<ApprovalStore["finish"]>): void {
    write(
      this.db,
      "the approval's result",
      `UPDATE approvals SET state = ?, result = ?, outcome = ?, decided_at = COALESCE(decided_at, ?)
       WHERE id = ?`,
      outcome.state,
      outcome.result,
      outcome.outcome,
      at.toISOString(),
      id,
    );
  }

  /** pending → denied. */
  deny(id: number, at: Date, via: ApprovalChannel): boolean {
    return write(
      this.db,
      "the approval",
      `UPDATE approvals SET state = 'denied', decided_at = ?, decided_via = ?
       WHERE id = ? AND state = 'pending'`,
      at.toISOString(),
      via,
      id,
    ).changes > 0;
  }

  /** Pending approvals past their expiry become expired. */
  expire(at: Date): ApprovalRecord[] {
    return transaction(this.db, () => {
      const sql = `SELECT ${columns} FROM approvals
        WHERE state = 'pending' AND expires_at <= ? ORDER BY id`;
      const expired = selectAll(this.db, toRecord, sql, at.toISOString());
      for (const record of expired) {
        write(
          this.db,
          "the approval",
          "UPDATE approvals SET state = 'expired', decided_at = ? WHERE id = ?",
          at.toISOString(),
          record.id,
        );
      }
      return expired.map((record) => ({ ...record, state: "expired" as const }));
    }, "the expired approvals");
  }

  /** Links the grant made from an approval. */
  linkGrant(id: number, grantId: string): void {
    write(this.db, "the approval", "UPDATE approvals SET grant_id = ? WHERE id = ?", grantId, id);
  }

  /** Deletes decided approvals older than `before`. */
  prune(before: Date): number {
    return deleteBefore(
      this.db,
      "the approvals cleanup",
      "DELETE FROM approvals WHERE state NOT IN ('pending', 'running') AND created_at < ?",
      before,
    );
  }

  #byKey(key: string): ApprovalRecord | undefined {
    return selectOne(this.db, toRecord, `SELECT ${columns} FROM approvals WHERE key = ?`, key);
  }
}
