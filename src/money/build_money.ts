/**
 * Money assembled once (`buildMoney`, called by the composition root): the ledger (`radar.money`),
 * its tick job and its health records.
 */
import { isAbsolute, join } from "node:path";
import { expandHome, homeDirectory } from "../config/paths.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { SourceHealthRecord } from "../core/source_ports.ts";
import type { SourceStore } from "../sources/source_stores.ts";
import type { TickJob } from "../core/work_ports.ts";
import type { BackgroundBudget } from "../core/budget.ts";
import { checkDependencies } from "../sources/source_checks.ts";
import { storedHealthRecord } from "../sources/stored_health.ts";
import { moneySourceName } from "./money_alerts_check.ts";
import { moneyCategoriesSourceName, MoneyJob } from "./money_job.ts";
import { MoneyLedger, type MoneyLedgerDependencies } from "./money_ledger.ts";

/** The watched folder as an absolute path (relative to the home folder); empty when none is set. */
function moneyFolder(config: RadarConfig, env: Record<string, string | undefined>): string {
  const folder = config.money.folder.trim();
  if (!folder) return "";
  const expanded = expandHome(folder, env);
  return isAbsolute(expanded) ? expanded : join(homeDirectory(env), expanded);
}

/** Money as the composition root wires it. */
export interface MoneyParts {
  /** Bank statements: import, categories, report (`radar money`, /money, the money tool). */
  ledger: MoneyLedger;
  /** Money's tick job: always (it costs one query when there is nothing to do). */
  jobs(): TickJob[];
  /** The health records of money's folder and categoriser, when they are in use. */
  health(): SourceHealthRecord[];
}

/** Builds money over its stores. */
export function buildMoney(
  deps: MoneyLedgerDependencies & {
    env: Record<string, string | undefined>;
    /** `budget:`: past it, categorisation waits for the next day (the transactions stay pending). */
    budget?: Pick<BackgroundBudget, "pausedFor">;
  },
): MoneyParts {
  const ledger = new MoneyLedger(deps);
  return {
    ledger,
    jobs: () => [
      new MoneyJob({
        ...checkDependencies(deps),
        money: deps.config.money,
        folder: moneyFolder(deps.config, deps.env),
        ledger,
        moneyStore: deps.stores.money,
        alertState: deps.stores.moneyAlerts,
        budget: deps.budget,
      }),
    ],
    health: () => moneyHealthRecords(deps.config, deps.stores.health),
  };
}

/** The health records of money's folder and categoriser, when they are in use. */
function moneyHealthRecords(config: RadarConfig, health: SourceStore): SourceHealthRecord[] {
  const records: SourceHealthRecord[] = [];
  if (config.money.folder.trim()) {
    const stored = health.health(moneySourceName);
    records.push(
      storedHealthRecord("money", "statements folder", stored, "checked by radar serve"),
    );
  }
  const categories = health.health(moneyCategoriesSourceName);
  if (categories?.lastCheckAt) {
    records.push(storedHealthRecord("money", "categories", categories, "checked by radar serve"));
  }
  return records;
}
