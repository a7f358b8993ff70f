/**
 * Money as the composition root hands it out, built on first use: `radar.money()` loads money's
 * modules and its SQLite stores (money_parts.ts) and builds the ledger once. Whether money is in
 * use (a folder or accounts configured, or a statement imported) is one query here, so a run
 * decides whether to offer the `money` tool, and an idle daemon skips money's tick job, without
 * loading any of it.
 */
import type { SourceHealthRecord } from "../core/source_ports.ts";
import type { TickJob } from "../core/work_ports.ts";
import type { MoneyParts } from "../money/mod.ts";
import { hasMoneyTransactions } from "../adapters/sqlite/money_presence.ts";
import type { MoneyPartsDependencies } from "./money_parts.ts";
import { onFirstUse } from "./first_use.ts";

/** The ledger on first use, and whether money is in use (answered without loading it). */
export interface MoneyLedgerOnFirstUse {
  /** The ledger (`radar money`, /money, the money tool): money's modules load on the first call. */
  (): Promise<MoneyParts["ledger"]>;
  /** Money is in use: a folder or accounts are configured, or a statement was imported. */
  inUse(): boolean;
}

/** Money for the composition root: the ledger, its tick job and its health records. */
export interface MoneyOnFirstUse extends MoneyLedgerOnFirstUse {
  /** Money's tick job: while money is not in use it does nothing and loads nothing. */
  jobs(): TickJob[];
  /** The health records of money's folder and categoriser (none while money is not in use). */
  health(): Promise<SourceHealthRecord[]>;
}

function moneyPartsModule(): Promise<typeof import("./money_parts.ts")> {
  return import(new URL("./money_parts.ts", import.meta.url).href);
}

/** Money declared in its place in the build order, built (its modules loaded) when asked for. */
export function moneyOnFirstUse(deps: MoneyPartsDependencies): MoneyOnFirstUse {
  const { config, db } = deps;
  // A failed load is tried again on the next call (money's tick job retries on the next tick).
  const parts = onFirstUse(
    async (): Promise<MoneyParts> => (await moneyPartsModule()).moneyParts(deps),
    { retry: true },
  );
  const inUse = () =>
    Boolean(config.money.folder.trim()) || config.money.accounts.length > 0 ||
    hasMoneyTransactions(db);
  // False when unsure: money loads, and its own query reports the failure as before.
  const unused = () => {
    try {
      return !inUse();
    } catch {
      return false;
    }
  };
  let jobs: TickJob[] | undefined;
  return Object.assign(async () => (await parts()).ledger, {
    inUse,
    jobs: (): TickJob[] => [{
      name: "money",
      run: async (now: Date, signal: AbortSignal) => {
        if (!parts.current() && unused()) return;
        jobs ??= (await parts()).jobs();
        for (const job of jobs) await job.run(now, signal);
      },
    }],
    health: async () => unused() ? [] : (await parts()).health(),
  });
}
