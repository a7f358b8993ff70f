/**
 * Whether any statement was imported, without money's stores: one query the composition root asks
 * to decide whether money is in use (src/runtime/money_on_first_use.ts), so a run or an idle
 * daemon without money loads none of money's modules.
 */
import type { DatabaseSync } from "node:sqlite";
import { statement } from "./statements.ts";

/** True when `money_transactions` holds a row. */
export function hasMoneyTransactions(db: DatabaseSync): boolean {
  return statement(db, "SELECT 1 FROM money_transactions LIMIT 1").get() !== undefined;
}
