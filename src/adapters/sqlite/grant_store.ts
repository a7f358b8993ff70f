/** Standing grants the user made, in SQLite (radar.yaml's `grants:` rules are not stored). */
import type { DatabaseSync } from "node:sqlite";
import type { GrantStore, NewStandingGrant, StandingGrant } from "../../away/approval_ports.ts";
import { selectAll, selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

interface GrantRow {
  id: number;
  tool: string;
  arguments: string;
  note: string;
  private_data_to: string;
  approval_id: number | null;
  created_at: string;
  last_used_at: string | null;
  uses: number;
}

function toGrant(row: GrantRow): StandingGrant {
  return {
    id: String(row.id),
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as Record<string, string>,
    note: row.note,
    privateDataTo: JSON.parse(row.private_data_to) as string[],
    origin: "user",
    createdAt: row.created_at,
    approvalId: row.approval_id === null ? undefined : Number(row.approval_id),
    lastUsedAt: row.last_used_at ?? undefined,
    uses: Number(row.uses),
  };
}

/** The `grants` table. */
export class SqliteGrantStore implements GrantStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Stores a grant. */
  add(grant: NewStandingGrant, at: Date): StandingGrant {
    const id = insert(
      this.db,
      "the grant",
      `INSERT INTO grants (tool, arguments, note, private_data_to, approval_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      grant.tool,
      JSON.stringify(grant.arguments),
      grant.note,
      JSON.stringify(grant.privateDataTo ?? []),
      grant.approvalId ?? null,
      at.toISOString(),
    );
    return this.get(String(id))!;
  }

  /** Every stored grant, oldest first. */
  list(): StandingGrant[] {
    return selectAll(this.db, toGrant, "SELECT * FROM grants ORDER BY id");
  }

  /** One stored grant by id ("7"). */
  get(id: string): StandingGrant | undefined {
    if (!/^\d+$/.test(id)) return undefined;
    return selectOne(this.db, toGrant, "SELECT * FROM grants WHERE id = ?", Number(id));
  }

  /** Deletes a grant. */
  revoke(id: string): boolean {
    if (!/^\d+$/.test(id)) return false;
    return write(this.db, "the grant", "DELETE FROM grants WHERE id = ?", Number(id)).changes > 0;
  }

  /** Counts a use. */
  recordUse(id: string, at: Date): void {
    if (!/^\d+$/.test(id)) return;
    write(
      this.db,
      "the grant's use",
      "UPDATE grants SET last_used_at = ?, uses = uses + 1 WHERE id = ?",
      at.toISOString(),
      Number(id),
    );
  }
}
