/**
 * The monthly money report from the store's integer sums: per currency, spending and income by
 * category with the change against the previous months (last month, and the average of the
 * months before that had any transactions), the top payees, and each month's totals for the chart.
 * Spending is reported as a positive amount; every number is an integer in minor units.
 */
import type { CategoryTotal, MerchantTotal } from "./money_store.ts";

/** The label of transactions without a category. */
const uncategorizedLabel = "uncategorized";

/** One category in one month, against the months before. */
export interface CategoryLine {
  category: string;
  spentMinor: number;
  receivedMinor: number;
  count: number;
  /** Spent in the month before. */
  previousMinor: number;
  /** Spent on average in the compared months that had transactions (rounded); absent: none. */
  averageMinor?: number;
  /** `spentMinor - averageMinor`. */
  changeMinor?: number;
  /** The change in percent of the average (rounded); absent when the average is 0. */
  changePercent?: number;
}

/** One month's totals (for the chart). */
export interface MonthTotal {
  month: string;
  spentMinor: number;
  receivedMinor: number;
}

/** The report of one currency. */
export interface CurrencyReport {
  currency: string;
  spentMinor: number;
  receivedMinor: number;
  /** `receivedMinor - spentMinor`. */
  netMinor: number;
  categories: CategoryLine[];
  topPayees: Array<{ payee: string; merchant: string; spentMinor: number; count: number }>;
  /** The compared months and this one, oldest first. */
  months: MonthTotal[];
}

/** The whole report. */
export interface MoneyReport {
  month: string;
  /** The months compared against, oldest first. */
  compared: string[];
  currencies: CurrencyReport[];
}

/** The `count` months before `month` (YYYY-MM), oldest first. */
export function monthsBefore(month: string, count: number): string[] {
  const [year, number] = month.split("-").map(Number);
  const months: string[] = [];
  for (let back = count; back >= 1; back--) {
    const date = new Date(Date.UTC(year, number - 1 - back, 1));
    months.push(`${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return months;
}

/** True for a real YYYY-MM. */
export function isMonth(text: string): boolean {
  return /^(19|20|21)\d{2}-(0[1-9]|1[0-2])$/.test(text);
}

/** Builds the report of `month` from the category totals of it and the compared months. */
export function buildMoneyReport(
  month: string,
  compared: readonly string[],
  totals: readonly CategoryTotal[],
  merchants: readonly MerchantTotal[],
): MoneyReport {
  const inMonth = totals.filter((row) => row.month === month);
  const currencies = [...new Set(inMonth.map((row) => row.currency))].sort();
  return {
    month,
    compared: [...compared],
    currencies: currencies.map((currency) => {
      const mine = (row: { currency: string }) => row.currency === currency;
      return currencyReport(month, compared, totals.filter(mine), merchants.filter(mine), currency);
    }),
  };
}

function currencyReport(
  month: string,
  compared: readonly string[],
  totals: readonly CategoryTotal[],
  merchants: readonly MerchantTotal[],
  currency: string,
): CurrencyReport {
  const sum = (rows: readonly CategoryTotal[], key: "spentMinor" | "receivedMinor") =>
    rows.reduce((total, row) => total + (key === "spentMinor" ? -row.spentMinor : row[key]), 0);
  const inMonth = (at: string) => totals.filter((row) => row.month === at);
  const activeMonths = compared.filter((at) => inMonth(at).length > 0);
  const previous = compared.at(-1);
  const categories = [...new Set(totals.map((row) => row.category))].map((category) => {
    const of = (at: string) =>
      totals.filter((row) => row.month === at && row.category === category);
    const current = of(month);
    const spentMinor = sum(current, "spentMinor");
    const line: CategoryLine = {
      category: category || uncategorizedLabel,
      spentMinor,
      receivedMinor: sum(current, "receivedMinor"),
      count: current.reduce((total, row) => total + row.count, 0),
      previousMinor: previous ? sum(of(previous), "spentMinor") : 0,
    };
    if (activeMonths.length) {
      const average = Math.round(
        activeMonths.reduce((total, at) => total + sum(of(at), "spentMinor"), 0) /
          activeMonths.length,
      );
      line.averageMinor = average;
      line.changeMinor = spentMinor - average;
      if (average > 0) line.changePercent = Math.round((100 * (spentMinor - average)) / average);
    }
    return line;
  }).sort((a, b) =>
    b.spentMinor - a.spentMinor || b.receivedMinor - a.receivedMinor ||
    a.category.localeCompare(b.category)
  );
  const spentMinor = sum(inMonth(month), "spentMinor");
  const receivedMinor = sum(inMonth(month), "receivedMinor");
  return {
    currency,
    spentMinor,
    receivedMinor,
    netMinor: receivedMinor - spentMinor,
    categories,
    topPayees: merchants.map((merchant) => ({
      payee: merchant.payee,
      merchant: merchant.merchant,
      spentMinor: -merchant.spentMinor,
      count: merchant.count,
    })),
    months: [...compared, month].map((at) => ({
      month: at,
      spentMinor: sum(inMonth(at), "spentMinor"),
      receivedMinor: sum(inMonth(at), "receivedMinor"),
    })),
  };
}
