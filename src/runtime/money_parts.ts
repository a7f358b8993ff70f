/**
 * Money over its SQLite stores, loaded at run time (money_on_first_use.ts) the first time money is
 * asked for: its modules and stores are not part of a run's or an idle daemon's start.
 */
import type { DatabaseSync } from "node:sqlite";
import type { SourceStores } from "../sources/source_stores.ts";
import type { MoneyStores } from "../money/money_store.ts";
import { buildMoney, type MoneyParts } from "../money/mod.ts";
import { SqliteMoneyStore } from "../adapters/sqlite/money_store.ts";
import { SqliteMoneyReports } from "../adapters/sqlite/money_reports.ts";
import { SqliteMoneyAlertState } from "../adapters/sqlite/money_accounts.ts";

/** What money is built from: `buildMoney`'s dependencies but its stores, which are made here. */
export type MoneyPartsDependencies = Omit<Parameters<typeof buildMoney>[0], "stores"> & {
  db: DatabaseSync;
  /**
   * The sources' stores, built on first use (money keeps its health beside theirs, in their
   * transaction).
   */
  sources: () => Promise<SourceStores>;
};

/** Money's stores over the sources' (their health, one transaction). */
export function sqliteMoneyStores(db: DatabaseSync, sources: SourceStores): MoneyStores {
  return {
    ...sources,
    money: new SqliteMoneyStore(db),
    moneyReports: new SqliteMoneyReports(db),
    moneyAlerts: new SqliteMoneyAlertState(db),
  };
}

/** Builds money (`buildMoney`) over its SQLite stores. */
export async function moneyParts(deps: MoneyPartsDependencies): Promise<MoneyParts> {
  const { db, sources, ...rest } = deps;
  return buildMoney({ ...rest, stores: sqliteMoneyStores(db, await sources()) });
}
