/**
 * What a person wants to hear about their money, as pure rules over a new transaction and the
 * history before it: a first charge from a merchant above a threshold, the same charge twice in
 * one day, a monthly charge that went up, a balance that fell below its floor. Each alert has a
 * key, so it is raised once however often its statement is imported.
 */
import type { MoneyTransaction } from "./money.ts";
import { formatMoney } from "./money_amounts.ts";

/** The kinds of money events. */
export type MoneyAlertKind =
  | "money_new_merchant"
  | "money_repeat_charge"
  | "money_price_increase"
  | "money_low_balance"
  | "money_import_failed";

/** One event to queue. */
export interface MoneyAlert {
  key: string;
  kind: MoneyAlertKind;
  summary: string;
}

/** Days from one YYYY-MM-DD to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function quoted(payee: string): string {
  return `"${payee.slice(0, 80)}"`;
}

/**
 * A debit of at least `thresholdMinor` from a merchant the account never paid (nor was paid by)
 * before. `history` is the merchant's earlier transactions in the account.
 */
export function newMerchantAlert(
  transaction: MoneyTransaction,
  history: readonly MoneyTransaction[],
  thresholdMinor: number,
): MoneyAlert | undefined {
  if (thresholdMinor <= 0 || transaction.amountMinor > -thresholdMinor || history.length) {
    return undefined;
  }
  return {
    key: `new-merchant:${transaction.account}:${transaction.merchant}`,
    kind: "money_new_merchant",
    summary: `${transaction.account}: first charge from ${quoted(transaction.payee)}: ` +
      `${formatMoney(transaction.amountMinor, transaction.currency)} on ${transaction.bookedOn}`,
  };
}

/** Two or more equal debits from one merchant on one day (`sameDay`: that day's transactions). */
export function repeatChargeAlert(
  transaction: MoneyTransaction,
  sameDay: readonly MoneyTransaction[],
): MoneyAlert | undefined {
  if (transaction.amountMinor >= 0) return undefined;
  const twins = sameDay.filter((other) =>
    other.amountMinor === transaction.amountMinor && other.currency === transaction.currency
  );
  if (twins.length < 2) return undefined;
  return {
    key: `repeat:${transaction.account}:${transaction.merchant}:${transaction.bookedOn}:` +
      transaction.amountMinor,
    kind: "money_repeat_charge",
    summary: `${transaction.account}: ${quoted(transaction.payee)} charged ` +
      `${formatMoney(transaction.amountMinor, transaction.currency)} ${twins.length} times on ` +
      transaction.bookedOn,
  };
}

/** Days apart that count as "monthly". */
const monthly = { min: 26, max: 35 };

/**
 * A subscription that costs more: the merchant's two previous debits were equal and a month
 * apart, and this one, a month later, is larger. `history` is newest first.
 */
export function priceIncreaseAlert(
  transaction: MoneyTransaction,
  history: readonly MoneyTransaction[],
): MoneyAlert | undefined {
  const debits = history.filter((earlier) =>
    earlier.amountMinor < 0 && earlier.currency === transaction.currency
  );
  if (transaction.amountMinor >= 0 || debits.length < 2) return undefined;
  const [last, before] = debits;
  const isMonthly = (from: string, to: string) => {
    const days = daysBetween(from, to);
    return days >= monthly.min && days <= monthly.max;
  };
  if (
    last.amountMinor !== before.amountMinor || !isMonthly(before.bookedOn, last.bookedOn) ||
    !isMonthly(last.bookedOn, transaction.bookedOn) || transaction.amountMinor >= last.amountMinor
  ) return undefined;
  return {
    key: `price:${transaction.account}:${transaction.merchant}:${transaction.bookedOn}`,
    kind: "money_price_increase",
    summary: `${transaction.account}: ${quoted(transaction.payee)} went up from ` +
      `${formatMoney(-last.amountMinor, transaction.currency)} to ` +
      `${formatMoney(-transaction.amountMinor, transaction.currency)} a month ` +
      `(charged ${transaction.bookedOn})`,
  };
}

/** The balance fell below the floor (raised on the way down only; `wasBelow` is the last state). */
export function lowBalanceAlert(
  account: string,
  balance: { amountMinor: number; currency: string; on: string },
  floorMinor: number,
  wasBelow: boolean | undefined,
): MoneyAlert | undefined {
  if (balance.amountMinor >= floorMinor || wasBelow) return undefined;
  return {
    key: `low-balance:${account}:${balance.on}:${balance.amountMinor}`,
    kind: "money_low_balance",
    summary: `${account}: balance ${formatMoney(balance.amountMinor, balance.currency)} on ` +
      `${balance.on} is below the floor of ${formatMoney(floorMinor, balance.currency)}`,
  };
}
