/** Money built from the runtime's parts: the ledger (`radar.money`), its tick job and health. */
import { isAbsolute, join } from "node:path";
import { expandHome, homeDirectory } from "../../config/paths.ts";
import type { RadarConfig } from "../../config/schema.ts";
import type { BackgroundBudget } from "../../core/budget.ts";
import type { SourceHealthRecord } from "../../core/source_ports.ts";
import type { SourceStore } from "../../core/source_stores.ts";
import { checkDependencies } from "../source_checks.ts";
import { storedHealthRecord } from "../stored_health.ts";
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

/** The money ledger over the stores. */
export function moneyLedger(deps: MoneyLedgerDependencies): MoneyLedger {
  return new MoneyLedger(deps);
}

/** Money's tick job: always (it costs one query when there is nothing to do). */
export function moneyJobs(
  deps: MoneyLedgerDependencies & {
    ledger: MoneyLedger;
    env: Record<string, string | undefined>;
    budget?: Pick<BackgroundBudget, "pausedFor">;
  },
): MoneyJob[] {
  return [
    new MoneyJob({
      ...checkDependencies(deps),
      money: deps.config.money,
      folder: moneyFolder(deps.config, deps.env),
      ledger: deps.ledger,
      moneyStore: deps.stores.money,
      alertState: deps.stores.moneyAlerts,
      budget: deps.budget,
    }),
  ];
}

/** The health records of money's folder and categoriser, when they are in use. */
export function moneyHealthRecords(config: RadarConfig, health: SourceStore): SourceHealthRecord[] {
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
