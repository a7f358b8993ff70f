/** SQLite storage of plugin approvals and reviews (schema 004_plugins). */
import type { DatabaseSync } from "node:sqlite";
import type { PluginApproval, PluginRecords } from "../../plugins/plugin_records.ts";
import type { PluginReview } from "../../core/plugin_state.ts";
import { camelRecord, columnsOf, type Row, selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

/** The columns of an approval before and after its grant (JSON), in its record's key order. */
const approvalHead = columnsOf<Omit<PluginApproval, "grant">>()(
  "id name version files_hash trust_level",
);
const approvalTail = columnsOf<Omit<PluginApproval, "grant">>()("approved_by approved_at");

function toApproval(row: Row): PluginApproval {
  return {
    ...camelRecord(row, approvalHead),
    grant: JSON.parse(row.grant_json as string),
    ...camelRecord(row, approvalTail),
  };
}

/** The columns of a review before and after its errors and tests (JSON), in key order. */
const reviewHead = columnsOf<Omit<PluginReview, "errors" | "tests">>()("name source files_hash");
const reviewTail = columnsOf<Omit<PluginReview, "errors" | "tests">>()("attempts updated_at");

function toReview(row: Row): PluginReview {
  return {
    ...camelRecord(row, reviewHead),
    errors: JSON.parse(row.errors_json as string),
    tests: JSON.parse(row.tests_json as string),
    ...camelRecord(row, reviewTail),
  };
}

/** Plugin approvals and reviews in Radar's SQLite file. */
export class SqlitePluginRecords implements PluginRecords {
  constructor(private readonly db: DatabaseSync) {}

  /** Records an approval and returns its id. */
  addApproval(approval: Omit<PluginApproval, "id">): number {
    return insert(
      this.db,
      "the plugin approval",
      `INSERT INTO plugin_approvals
       (name, version, files_hash, trust_level, grant_json, approved_by, approved_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      approval.name,
      approval.version,
      approval.filesHash,
      approval.trustLevel,
      JSON.stringify(approval.grant),
      approval.approvedBy,
      approval.approvedAt,
    );
  }

  /** The newest unrevoked approval of exactly these files. */
  findApproval(name: string, filesHash: string): PluginApproval | undefined {
    const sql = `SELECT * FROM plugin_approvals
      WHERE name = ? AND files_hash = ? AND revoked_at IS NULL ORDER BY id DESC LIMIT 1`;
    return selectOne(this.db, toApproval, sql, name, filesHash);
  }

  /** The newest unrevoked approval of a plugin. */
  latestApproval(name: string): PluginApproval | undefined {
    const sql = `SELECT * FROM plugin_approvals WHERE name = ? AND revoked_at IS NULL
      ORDER BY id DESC LIMIT 1`;
    return selectOne(this.db, toApproval, sql, name);
  }

  /** Revokes every approval of a plugin. */
  revokeApprovals(name: string, at: Date): void {
    write(
      this.db,
      "the plugin revocation",
      `UPDATE plugin_approvals SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL`,
      at.toISOString(),
      name,
    );
  }

  /** Creates or replaces a plugin's review state. */
  saveReview(review: PluginReview): void {
    write(
      this.db,
      "the plugin review",
      `INSERT INTO plugin_reviews (name, source, files_hash, errors_json, tests_json, attempts, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET source = excluded.source, files_hash = excluded.files_hash,
         errors_json = excluded.errors_json, tests_json = excluded.tests_json,
         attempts = excluded.attempts, updated_at = excluded.updated_at`,
      review.name,
      review.source,
      review.filesHash,
      JSON.stringify(review.errors),
      JSON.stringify(review.tests),
      review.attempts,
      review.updatedAt,
    );
  }

  /** A plugin's review state. */
  getReview(name: string): PluginReview | undefined {
    return selectOne(this.db, toReview, `SELECT * FROM plugin_reviews WHERE name = ?`, name);
  }

  /** Forgets a plugin's review state. */
  deleteReview(name: string): void {
    write(
      this.db,
      "the plugin review's removal",
      `DELETE FROM plugin_reviews WHERE name = ?`,
      name,
    );
  }
}
