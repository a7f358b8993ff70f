/**
 * Money's events after an import: each new, recent debit is checked against its merchant's
 * history (first charge above the threshold, the same charge twice in a day, a monthly price
 * rise) and each account with a floor against its newest balance. An alert is queued once: its
 * key is claimed in the same transaction as the event. The first import of an account is a
 * baseline (everything in it would look new) and raises only the balance check.
 */
import type { MoneyConfig } from "../config/money_schema.ts";
import type { MoneyTransaction } from "./money.ts";
import {
  daysBetween,
  lowBalanceAlert,
  type MoneyAlert,
  newMerchantAlert,
  priceIncreaseAlert,
  repeatChargeAlert,
} from "./money_alerts.ts";
import { configAmountMinor } from "./money_amounts.ts";
import type { MoneyAlertState, MoneyStore } from "./money_store.ts";
import type { EventSink } from "../sources/source_checks.ts";
import { configuredAccount } from "./statement_accounts.ts";
import { moneySourceName } from "./money_sources.ts";

/** What the alert check needs. */
export interface AlertCheckDependencies {
  config: MoneyConfig;
  store: MoneyStore;
  state: MoneyAlertState;
  queue: EventSink;
}

/** Queues an alert unless it was raised before; true when queued. */
export function raise(deps: AlertCheckDependencies, alert: MoneyAlert, at: Date): boolean {
  if (!deps.state.claim(alert.key, at)) return false;
  deps.queue.enqueue({
    source: moneySourceName,
    kind: alert.kind,
    summary: alert.summary,
    dedupeKey: alert.key,
  }, at);
  return true;
}

function threshold(config: MoneyConfig, currency: string): number {
  try {
    return configAmountMinor(config.alerts.new_merchant_above, currency);
  } catch {
    return 0;
  }
}

/**
 * Checks the new transactions of one import (`baseline`: accounts that had none before it) and
 * the balances of `accounts`; `today` is YYYY-MM-DD in the user's zone. Returns alerts queued.
 */
export function checkMoneyAlerts(
  deps: AlertCheckDependencies,
  added: readonly MoneyTransaction[],
  baseline: ReadonlySet<string>,
  accounts: ReadonlySet<string>,
  today: string,
  at: Date,
): number {
  const { config, store } = deps;
  let queued = 0;
  for (const transaction of added) {
    if (baseline.has(transaction.account) || transaction.amountMinor >= 0) continue;
    const age = daysBetween(transaction.bookedOn, today);
    if (age > config.alerts.recent_days || age < -1) continue;
    const history = store.merchantHistory(
      transaction.account,
      transaction.merchant,
      transaction.bookedOn,
      3,
    );
    const alerts = [
      newMerchantAlert(transaction, history, threshold(config, transaction.currency)),
      config.alerts.repeat_same_day
        ? repeatChargeAlert(
          transaction,
          store.merchantDay(transaction.account, transaction.merchant, transaction.bookedOn)
            .filter((other) => other.amountMinor < 0),
        )
        : undefined,
      config.alerts.subscription_increase ? priceIncreaseAlert(transaction, history) : undefined,
    ];
    for (const alert of alerts) if (alert && raise(deps, alert, at)) queued++;
  }
  for (const account of accounts) queued += checkBalanceFloor(deps, account, at) ? 1 : 0;
  return queued;
}

/** Raises the low-balance alert when the account's newest balance fell below its floor. */
function checkBalanceFloor(deps: AlertCheckDependencies, account: string, at: Date): boolean {
  const floor = configuredAccount(deps.config, account)?.balance_floor;
  const balance = deps.state.balance(account);
  if (floor === undefined || !balance) return false;
  let floorMinor: number;
  try {
    floorMinor = configAmountMinor(floor, balance.currency);
  } catch {
    return false;
  }
  const below = balance.amountMinor < floorMinor;
  const alert = lowBalanceAlert(account, balance, floorMinor, deps.state.balanceBelow(account));
  deps.state.setBalanceBelow(account, below, at);
  return alert ? raise(deps, alert, at) : false;
}
