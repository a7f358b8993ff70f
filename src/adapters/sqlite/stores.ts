/**
 * The event sources' stores over one database, built by the composition root on their first use
 * (core_adapters.ts; acting while away's are in away_stores.ts, money's are built with money:
 * src/runtime/money_parts.ts).
 */
import type { DatabaseSync } from "node:sqlite";
import type { SourceStores } from "../../sources/source_stores.ts";
import { SqliteCheckStore } from "./check_store.ts";
import { SqliteDigestStore } from "./digest_store.ts";
import { SqliteGitHubStore } from "./github_store.ts";
import { SqlitePeriodActivity } from "./period_activity.ts";
import { SqliteSourceStore } from "./source_store.ts";
import { transaction } from "./write.ts";

/**
 * Every store a source uses, and one transaction over them; `digests` is the composition root's
 * (it lists and searches them without loading the rest).
 */
export function sqliteSourceStores(
  db: DatabaseSync,
  digests: SqliteDigestStore = new SqliteDigestStore(db),
): SourceStores {
  return {
    health: new SqliteSourceStore(db),
    checks: new SqliteCheckStore(db),
    github: new SqliteGitHubStore(db),
    digests,
    activity: new SqlitePeriodActivity(db),
    transaction: (work) => transaction(db, work),
  };
}
