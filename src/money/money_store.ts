/**
 * Ports of money's tables: imported files, transactions (de-duplicated on the way in), learned
 * rules, remembered CSV mappings, the report's sums and the alerts already raised. SQLite
 * implements them (src/adapters/sqlite/money_*.ts); money and the CLI never see a database.
 */
import type { SourceStores } from "../sources/source_stores.ts";
import type {
  CategorySource,
  LearnedRule,
  MoneyImport,
  MoneyTransaction,
  StatementFormat,
} from "./money.ts";

/** Money's stores (`sqliteMoneyStores`), beside the sources' health and their one transaction. */
export interface MoneyStores extends Pick<SourceStores, "health" | "transaction"> {
  /** Statement imports, transactions and categories. */
  money: MoneyStore;
  moneyReports: MoneyReports;
  moneyAlerts: MoneyAlertState;
}

/** A transaction about to be stored (no id or category yet). */
export type NewMoneyTransaction = Omit<MoneyTransaction, "id" | "category" | "categorySource"> & {
  /**
   * The stable hash of account, date, amount, normalised payee and the occurrence index within
   * the day: what identifies a transaction when the bank gives no id.
   */
  contentKey: string;
};

/** Which transactions to list. */
export interface MoneyFilter {
  /** YYYY-MM. */
  month?: string;
  account?: string;
  category?: string;
  uncategorized?: boolean;
  limit: number;
  offset?: number;
}

/** Port: files, transactions, categories, learned rules and CSV mappings. */
export interface MoneyStore {
  /** The import of the file with this sha256, if any (a failed one too). */
  findImport(fileHash: string): MoneyImport | undefined;
  /** Starts the record of a file's import (a failed record of the same bytes is replaced). */
  startImport(
    entry: { fileHash: string; fileName: string; account: string; format: StatementFormat },
    at: Date,
  ): number;
  /** Writes the counts of a finished import. */
  finishImport(id: number, added: number, duplicates: number): void;
  /** Records a file that could not be imported, so it is not tried again until it changes. */
  recordFailedImport(
    entry: { fileHash: string; fileName: string; account: string; error: string },
    at: Date,
  ): void;
  /** The newest imports, newest first. */
  recentImports(limit: number): MoneyImport[];
  /** Whether the account has any transaction stored (any account when absent). */
  hasTransactions(account?: string): boolean;
  /**
   * Stores a transaction unless it is already there: the same bank id in the account, or
   * (without one, or against a row stored without one) the same content key. Returns the new
   * id, or undefined for a duplicate.
   */
  add(transaction: NewMoneyTransaction): number | undefined;
  get(id: number): MoneyTransaction | undefined;
  list(filter: MoneyFilter): MoneyTransaction[];
  /** Uncategorised transactions the model has not been asked about, oldest first. */
  pendingForModel(limit: number): MoneyTransaction[];
  /** Sets categories (and how they were decided). */
  setCategories(
    items: ReadonlyArray<{ id: number; category: string; source: CategorySource }>,
    at: Date,
  ): void;
  /** Records that the model was asked about these (answered or not): it is not asked again. */
  markModelAsked(ids: readonly number[], at: Date): void;
  /**
   * Gives every transaction of `merchant` not set by the user `category` (source "learned");
   * returns how many changed.
   */
  recategorizeMerchant(merchant: string, category: string, at: Date): number;
  /** Earlier transactions of a merchant in an account, booked before `before`, newest first. */
  merchantHistory(
    account: string,
    merchant: string,
    before: string,
    limit: number,
  ): MoneyTransaction[];
  /** Transactions of a merchant in an account booked on `day`. */
  merchantDay(account: string, merchant: string, day: string): MoneyTransaction[];
  learnedRules(): LearnedRule[];
  /** Remembers (or replaces) the category of a merchant. */
  learnRule(merchant: string, category: string, at: Date): void;
  /** The confirmed CSV mapping of an account (JSON text), if any. */
  savedMapping(account: string): string | undefined;
  saveMapping(account: string, mapping: string, at: Date): void;
  /** Records a balance the statement states, unless a newer one is stored. */
  recordBalance(account: string, balance: AccountBalance): void;
}

/** An account's newest known balance. */
export interface AccountBalance {
  amountMinor: number;
  currency: string;
  /** YYYY-MM-DD. */
  on: string;
}

/** One account as `radar money` lists it. */
export interface MoneyAccountSummary {
  name: string;
  transactions: number;
  firstOn?: string;
  lastOn?: string;
  balance?: AccountBalance;
}

/** Sums of one month, currency and category (integers: SQLite adds integers exactly). */
export interface CategoryTotal {
  /** YYYY-MM. */
  month: string;
  currency: string;
  /** Empty for uncategorised. */
  category: string;
  /** Sum of the negative amounts (≤ 0). */
  spentMinor: number;
  /** Sum of the positive amounts (≥ 0). */
  receivedMinor: number;
  count: number;
}

/** A merchant's spending in one month. */
export interface MerchantTotal {
  merchant: string;
  /** One of its payee texts, for display. */
  payee: string;
  currency: string;
  spentMinor: number;
  count: number;
}

/** Port: the sums behind `radar money report` and /money. */
export interface MoneyReports {
  /** Per month (from `fromMonth` to `toMonth`, inclusive), currency and category. */
  categoryTotals(fromMonth: string, toMonth: string): CategoryTotal[];
  /** The merchants with the most spending in a month, per currency. */
  topMerchants(month: string, limit: number): MerchantTotal[];
  /** Transaction counts per category (empty string: uncategorised). */
  categoryCounts(): Map<string, number>;
  accounts(): MoneyAccountSummary[];
}

/** Port: what money's alerts remember (so each is raised once). */
export interface MoneyAlertState {
  /** Claims an alert key; false when it was raised before. */
  claim(key: string, at: Date): boolean;
  /** Whether the account's balance was below its floor at the last check (undefined: never). */
  balanceBelow(account: string): boolean | undefined;
  setBalanceBelow(account: string, below: boolean, at: Date): void;
  /** The account's newest known balance. */
  balance(account: string): AccountBalance | undefined;
}
