/** SQLite storage of plugin approvals and reviews (schema 004_plugins). */
import type { DatabaseSync } from "node:sqlite";
import type { PluginApproval, PluginRecords } from "../../plugins/plugin_records.ts";
import type { PluginReview } from "../../core/plugin_state.ts";
import { selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

interface ApprovalRow {
  id: number;
  name: string;
  version: string;
  files_hash: string;
  trust_level: "sandbox" | "local";
  grant_json: string;
  approved_by: "user" | "tests_passed";
  approved_at: string;
}

interface ReviewRow {
  name: string;
  source: PluginReview["source"];
  files_hash: string;
  errors_json: string;
  tests_json: string;
  attempts: number;
  updated_at: string;
}

function toApproval(row: ApprovalRow): PluginApproval {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    filesHash: row.files_hash,
    trustLevel: row.trust_level,
    grant: JSON.parse(row.grant_json),
    approvedBy: row.approved_by,
    approvedAt: row.approved_at,
  };
}

function toReview(row: ReviewRow): PluginReview {
  return {
    name: row.name,
    source: row.source,
    filesHash: row.files_hash,
    errors: JSON.parse(row.errors_json),
    tests: JSON.parse(row.tests_json),
    attempts: row.attempts,
    updatedAt: row.updated_at,
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
