/**
 * Money assembled once (`buildMoney`, called on first use by src/runtime/money_parts.ts): the
 * ledger, its tick job and its health records.
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
import type { MoneyJob } from "./money_job.ts";
import { MoneyLedger, type MoneyLedgerDependencies } from "./money_ledger.ts";
import { moneyCategoriesSourceName, moneySourceName } from "./money_sources.ts";

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
  /**
   * Money's tick job: always. With no folder and nothing waiting for the model it costs one query,
   * and the job's modules (`money_job.ts`: the folder scan, the statement files, the alerts) load
   * with its first real work.
   */
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
    jobs: () => {
      const folder = moneyFolder(deps.config, deps.env);
      let job: Promise<MoneyJob> | undefined;
      const build = async () => {
        const { MoneyJob } = await moneyJobModule();
        return new MoneyJob({
          ...checkDependencies(deps),
          money: deps.config.money,
          folder,
          ledger,
          moneyStore: deps.stores.money,
          alertState: deps.stores.moneyAlerts,
          budget: deps.budget,
        });
      };
      return [{
        name: "money",
        // The job's own first step, asked here: no folder and nothing pending for the model is
        // nothing to do (the job would list no folder and stop at the same query). A failing
        // query is the job's to log, as before.
        run: async (now, signal) => {
          if (!job && !folder && nothingToCategorize(deps)) return;
          // A failed load is tried again on the next tick (the scheduler logs it).
          job ??= build().catch((error) => {
            job = undefined;
            throw error;
          });
          await (await job).run(now, signal);
        },
      }];
    },
    health: () => moneyHealthRecords(deps.config, deps.stores.health),
  };
}

/** True when the model has nothing to categorise now, or is not asked (false if unsure). */
function nothingToCategorize(deps: MoneyLedgerDependencies): boolean {
  try {
    return !deps.config.money.categorize_with_model || !deps.stores.money.pendingForModel(1).length;
  } catch {
    return false;
  }
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

/** The money job's module, loaded with its first run. */
function moneyJobModule(): Promise<typeof import("./money_job.ts")> {
  return import(new URL("./money_job.ts", import.meta.url).href);
}
