/**
 * The stores the composition root builds once over one database: the event sources' and acting
 * while away's (money's are built with money, on first use: src/runtime/money_parts.ts).
 */
import type { DatabaseSync } from "node:sqlite";
import type { SourceStores } from "../../sources/source_stores.ts";
import { SqliteCheckStore } from "./check_store.ts";
import { SqliteDigestStore } from "./digest_store.ts";
import { SqliteGitHubStore } from "./github_store.ts";
import { SqlitePeriodActivity } from "./period_activity.ts";
import { SqliteSourceStore } from "./source_store.ts";
import { transaction } from "./write.ts";
import type { AwayStores } from "../../away/approval_ports.ts";
import { SqliteApprovalStore } from "./approval_store.ts";
import { SqliteCapabilityStore } from "./capability_store.ts";
import { SqliteGrantStore } from "./grant_store.ts";
import { SqliteActionJournal } from "./action_journal_store.ts";

/** Every store a source uses, and one transaction over them. */
export function sqliteSourceStores(db: DatabaseSync): SourceStores {
  return {
    health: new SqliteSourceStore(db),
    checks: new SqliteCheckStore(db),
    github: new SqliteGitHubStore(db),
    digests: new SqliteDigestStore(db),
    activity: new SqlitePeriodActivity(db),
    transaction: (work) => transaction(db, work),
  };
}

/** Acting while away's: approvals, button capabilities, standing grants and the action journal. */
export function sqliteAwayStores(db: DatabaseSync): AwayStores {
  return {
    approvals: new SqliteApprovalStore(db),
    capabilities: new SqliteCapabilityStore(db),
    grants: new SqliteGrantStore(db),
    journal: new SqliteActionJournal(db),
  };
}
