/**
 * Per-account rows of money (`money_accounts`: the confirmed CSV mapping, the newest stated
 * balance, whether it is below the floor) and the alerts already raised.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { AccountBalance, MoneyAlertState } from "../../money/money_store.ts";
import { statement } from "./statements.ts";
import { insertUnlessPresent, write } from "./write.ts";

/**
 * Sets columns of an account's row, creating it when missing; with `unlessNewer`, not when the
 * stored value of that column is greater (an older statement never replaces a newer balance).
 * Column names come from this code, never from input.
 */
export function setAccountColumns(
  db: DatabaseSync,
  what: string,
  account: string,
  values: Record<string, SQLInputValue>,
  unlessNewer?: string,
): void {
  const columns = Object.keys(values);
  const placeholders = columns.map((_, index) => `?${index + 2}`);
  const updates = columns.map((column, index) => `${column} = ?${index + 2}`).join(", ");
  const guard = unlessNewer
    ? ` WHERE money_accounts.${unlessNewer} IS NULL OR money_accounts.${unlessNewer} <= ` +
      `?${columns.indexOf(unlessNewer) + 2}`
    : "";
  write(
    db,
    what,
    `INSERT INTO money_accounts (name, ${columns.join(", ")}) VALUES (?1, ${
      placeholders.join(", ")
    })
     ON CONFLICT (name) DO UPDATE SET ${updates}${guard}`,
    account,
    ...Object.values(values),
  );
}

/** Raised alerts and balance-floor states. */
export class SqliteMoneyAlertState implements MoneyAlertState {
  constructor(private readonly db: DatabaseSync) {}

  claim(key: string, at: Date): boolean {
    return insertUnlessPresent(
      this.db,
      "the money alert",
      "INSERT OR IGNORE INTO money_alerts (key, raised_at) VALUES (?, ?)",
      key,
      at.toISOString(),
    ) !== undefined;
  }

  balanceBelow(account: string): boolean | undefined {
    const row = statement(this.db, "SELECT below_floor FROM money_accounts WHERE name = ?")
      .get(account) as { below_floor: number | null } | undefined;
    return row?.below_floor === null || row === undefined ? undefined : row.below_floor === 1;
  }

  setBalanceBelow(account: string, below: boolean, at: Date): void {
    setAccountColumns(this.db, "the balance check", account, {
      below_floor: below ? 1 : 0,
      floor_checked_at: at.toISOString(),
    });
  }

  balance(account: string): AccountBalance | undefined {
    const row = statement(
      this.db,
      "SELECT balance_minor, balance_currency, balance_on FROM money_accounts WHERE name = ?",
    ).get(account) as
      | { balance_minor: number | null; balance_currency: string | null; balance_on: string | null }
      | undefined;
    if (!row || row.balance_minor === null || !row.balance_currency || !row.balance_on) {
      return undefined;
    }
    return { amountMinor: row.balance_minor, currency: row.balance_currency, on: row.balance_on };
  }
}
