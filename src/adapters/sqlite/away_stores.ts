/** Acting while away's stores over one database, built once by the composition root. */
import type { DatabaseSync } from "node:sqlite";
import type { AwayStores } from "../../away/approval_ports.ts";
import { SqliteApprovalStore } from "./approval_store.ts";
import { SqliteCapabilityStore } from "./capability_store.ts";
import { SqliteGrantStore } from "./grant_store.ts";
import { SqliteActionJournal } from "./action_journal_store.ts";

/** Acting while away's: approvals, button capabilities, standing grants and the action journal. */
export function sqliteAwayStores(db: DatabaseSync): AwayStores {
  return {
    approvals: new SqliteApprovalStore(db),
    capabilities: new SqliteCapabilityStore(db),
    grants: new SqliteGrantStore(db),
    journal: new SqliteActionJournal(db),
  };
}
