/**
 * The money facade the CLI, the dashboard and the `money` tool use (`radar.money`): import a
 * statement, correct a category (remembered as a rule), ask the model about the rest, and read
 * categories, transactions, accounts and the monthly report.
 */
import type { MoneyImport, MoneyTransaction } from "./money.ts";
import type { MoneyReport } from "./money_report.ts";
import type { MoneyAccountSummary, MoneyFilter } from "./money_store.ts";

/** What a CSV's detected mapping would import, shown to the person before it is remembered. */
export interface CsvPreview {
  account: string;
  fileName: string;
  /** The mapping in words, one field a line. */
  mapping: string[];
  /** The first transactions as they would be stored, one line each. */
  sample: string[];
  /** How many transactions the file holds. */
  count: number;
}

/** One CSV column assignment given on the command line (`--map payee=Name`). */
export type CsvOverrides = Partial<
  Record<
    | "delimiter"
    | "date"
    | "dateFormat"
    | "amount"
    | "debit"
    | "credit"
    | "payee"
    | "description"
    | "balance"
    | "currency"
    | "decimal",
    string
  >
>;

/** What to import. */
export interface ImportRequest {
  /** The statement file (an absolute path). */
  path: string;
  /** The account it belongs to (else found from config, the folder, or the file). */
  account?: string;
  /** The currency when neither the account nor the file states one. */
  currency?: string;
  csv?: CsvOverrides;
  /**
   * Asked before a detected CSV mapping is used and remembered; absent (the watched folder, no
   * terminal): a CSV needs a configured or remembered mapping.
   */
  confirm?: (preview: CsvPreview) => Promise<boolean>;
  /** Ask the model about what no rule categorises (default: `money.categorize_with_model`). */
  useModel?: boolean;
}

/** What one import did. */
export interface ImportSummary {
  fileName: string;
  format: MoneyImport["format"];
  /** The file was imported before (same bytes): nothing was done. */
  alreadyImported?: MoneyImport;
  accounts: Array<{ account: string; added: number; duplicates: number }>;
  /** Categorised by config rules and by learned rules. */
  byRules: number;
  /** Categorised by the model (undefined: not asked). */
  byModel?: number;
  /** Why the model could not help (it is asked again later). */
  modelProblem?: string;
  /** Events queued for the heartbeat. */
  alerts: number;
}

/** What asking the model did. */
export interface ModelCategorization {
  asked: number;
  categorized: number;
  requests: number;
}

/** A category with its use and its rules. */
export interface CategorySummary {
  name: string;
  transactions: number;
  /** `money.rules` patterns that give it. */
  rules: string[];
  /** Merchants learned from corrections that give it. */
  learned: string[];
}

/** The money facade. */
export interface MoneyBook {
  import(request: ImportRequest, signal?: AbortSignal): Promise<ImportSummary>;
  /**
   * Sets a transaction's category (source "user"), remembers its merchant as a rule and applies
   * it to that merchant's other transactions not set by the user; returns how many changed too.
   */
  categorize(id: number, category: string): { transaction: MoneyTransaction; alsoChanged: number };
  /**
   * Asks the model about uncategorised transactions, at most `batches` requests (no request when
   * there are none).
   */
  categorizePending(signal?: AbortSignal, batches?: number): Promise<ModelCategorization>;
  categories(): CategorySummary[];
  /** The report of `month` (YYYY-MM; default: this month in radar.timezone). */
  report(month?: string): MoneyReport;
  transactions(filter: MoneyFilter): MoneyTransaction[];
  get(id: number): MoneyTransaction | undefined;
  accounts(): MoneyAccountSummary[];
  imports(limit: number): MoneyImport[];
  /** This month (YYYY-MM) in radar.timezone. */
  currentMonth(): string;
}
