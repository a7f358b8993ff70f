/**
 * `MoneyBook` over the money stores: what `radar money`, the dashboard's /money page, the
 * `money` tool and the watched folder all call. Imports categorise by rules in the import's
 * transaction, then ask the model about the rest (a model that is down leaves them for later).
 */
import type { RadarConfig } from "../config/schema.ts";
import { firstLine, NotFoundError, UsageError } from "../core/errors.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type {
  CategorySummary,
  ImportSummary,
  ModelCategorization,
  MoneyBook,
} from "./money_book.ts";
import { buildMoneyReport, isMonth, type MoneyReport, monthsBefore } from "./money_report.ts";
import type { MoneyTransaction } from "./money.ts";
import type { MoneyFilter, MoneyStores } from "./money_store.ts";
import { zonedParts } from "../core/zoned_time.ts";
import type { EventSink } from "../sources/source_checks.ts";
import type { StatementRequest } from "./statement_import.ts";

/** What the ledger needs. */
export interface MoneyLedgerDependencies {
  config: RadarConfig;
  stores: MoneyStores;
  queue: EventSink;
  /** The model that categorises (the fast model when one is set). */
  model: ChatModel;
  clock: Clock;
  logger: Logger;
}

/** Batches one import asks the model about, at most (the rest waits for the daemon). */
const maxModelBatches = 20;
/** Batches one daemon tick asks about: a long backlog must not hold up the heartbeat. */
export const tickModelBatches = 2;
/** Months the report compares against. */
const comparedMonths = 3;
/** Top payees in a report. */
const topPayeeCount = 10;

/** The money facade over the stores. */
export class MoneyLedger implements MoneyBook {
  constructor(private readonly deps: MoneyLedgerDependencies) {}

  /** Today (YYYY-MM-DD) in radar.timezone. */
  today(): string {
    const { year, month, day } = zonedParts(
      this.deps.clock.now(),
      this.deps.config.radar.timezone || undefined,
    );
    return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  }

  currentMonth(): string {
    return this.today().slice(0, 7);
  }

  /** Imports a file (the watched folder passes its sub-folder's account). */
  async import(request: StatementRequest, signal?: AbortSignal): Promise<ImportSummary> {
    const { deps } = this;
    // The statement parsers (CSV, OFX, CAMT) load with the first import.
    const { importStatementFile } = await statementImportModule();
    const { summary, added } = await importStatementFile({
      config: deps.config.money,
      store: deps.stores.money,
      state: deps.stores.moneyAlerts,
      queue: deps.queue,
      transaction: deps.stores.transaction,
      clock: deps.clock,
      today: () => this.today(),
    }, request);
    const useModel = request.useModel ?? deps.config.money.categorize_with_model;
    if (useModel && added.some((transaction) => !transaction.category)) {
      try {
        summary.byModel = (await this.categorizePending(signal)).categorized;
      } catch (error) {
        summary.modelProblem = firstLine(error);
        deps.logger.warn("money categories: the model failed", { error: summary.modelProblem });
      }
    }
    return summary;
  }

  categorize(id: number, category: string): { transaction: MoneyTransaction; alsoChanged: number } {
    const { deps } = this;
    const name = category.trim().toLowerCase();
    if (!deps.config.money.categories.includes(name)) {
      throw new UsageError(
        `Unknown category "${category.slice(0, 40)}": use one of ${
          deps.config.money.categories.join(", ")
        } ` +
          "(or add it to money.categories)",
      );
    }
    const found = deps.stores.money.get(id);
    if (!found) throw new NotFoundError(`No transaction ${id} (radar money transactions)`);
    const at = deps.clock.now();
    const alsoChanged = deps.stores.transaction(() => {
      deps.stores.money.setCategories([{ id, category: name, source: "user" }], at);
      deps.stores.money.learnRule(found.merchant, name, at);
      return deps.stores.money.recategorizeMerchant(found.merchant, name, at);
    });
    return { transaction: deps.stores.money.get(id)!, alsoChanged };
  }

  async categorizePending(
    signal?: AbortSignal,
    batches = maxModelBatches,
  ): Promise<ModelCategorization> {
    const { deps } = this;
    // The model categoriser loads with the first categorisation.
    const { categorizeWithModel } = await modelCategorizerModule();
    return await categorizeWithModel(
      {
        store: deps.stores.money,
        model: deps.model,
        categories: deps.config.money.categories,
        batchSize: deps.config.money.batch_size,
        transaction: deps.stores.transaction,
        clock: deps.clock,
      },
      batches,
      signal,
    );
  }

  categories(): CategorySummary[] {
    const { config, stores } = this.deps;
    const counts = stores.moneyReports.categoryCounts();
    const learned = stores.money.learnedRules();
    const names = [
      ...config.money.categories,
      ...[...counts.keys()].filter((name) => name && !config.money.categories.includes(name)),
    ];
    return names.map((name) => ({
      name,
      transactions: counts.get(name) ?? 0,
      rules: config.money.rules.filter((rule) => rule.category === name).map((rule) => rule.match),
      learned: learned.filter((rule) => rule.category === name).map((rule) => rule.merchant),
    }));
  }

  report(month?: string): MoneyReport {
    const chosen = month ?? this.currentMonth();
    if (!isMonth(chosen)) {
      throw new UsageError(`--month "${chosen.slice(0, 20)}" is not a month: expected YYYY-MM`);
    }
    const compared = monthsBefore(chosen, comparedMonths);
    const reports = this.deps.stores.moneyReports;
    return buildMoneyReport(
      chosen,
      compared,
      reports.categoryTotals(compared[0], chosen),
      reports.topMerchants(chosen, topPayeeCount),
    );
  }

  transactions(filter: MoneyFilter): MoneyTransaction[] {
    if (filter.month && !isMonth(filter.month)) {
      throw new UsageError(`"${filter.month.slice(0, 20)}" is not a month: expected YYYY-MM`);
    }
    return this.deps.stores.money.list(filter);
  }

  get(id: number): MoneyTransaction | undefined {
    return this.deps.stores.money.get(id);
  }

  accounts() {
    return this.deps.stores.moneyReports.accounts();
  }

  imports(limit: number) {
    return this.deps.stores.money.recentImports(limit);
  }
}

/** The statement parsers (CSV, OFX, CAMT), loaded with the first import. */
function statementImportModule(): Promise<typeof import("./statement_import.ts")> {
  return import(new URL("./statement_import.ts", import.meta.url).href);
}

/** The model categoriser, loaded with the first categorisation. */
function modelCategorizerModule(): Promise<typeof import("./model_categorizer.ts")> {
  return import(new URL("./model_categorizer.ts", import.meta.url).href);
}
