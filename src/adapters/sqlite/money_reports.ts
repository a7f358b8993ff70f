/** SQLite sums behind the money report. */
import type { DatabaseSync } from "node:sqlite";
import type {
  CategoryTotal,
  MerchantTotal,
  MoneyAccountSummary,
  MoneyReports,
} from "../../money/money_store.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf, selectAll } from "./rows.ts";

/** The columns of a category's and a merchant's sums, in their records' key order. */
const categoryColumns = columnsOf<CategoryTotal>()(
  "month currency category spent_minor received_minor count",
);
const merchantColumns = columnsOf<MerchantTotal>()("merchant payee currency spent_minor count");

/** The report's sums: integer SUMs in SQLite, exact. */
export class SqliteMoneyReports implements MoneyReports {
  constructor(private readonly db: DatabaseSync) {}

  categoryTotals(fromMonth: string, toMonth: string): CategoryTotal[] {
    return selectAll(
      this.db,
      (row) => camelRecord(row, categoryColumns),
      `SELECT substr(booked_on, 1, 7) AS month, currency, COALESCE(category, '') AS category,
         SUM(CASE WHEN amount_minor < 0 THEN amount_minor ELSE 0 END) AS spent_minor,
         SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS received_minor,
         COUNT(*) AS count
       FROM money_transactions WHERE booked_on >= ? AND booked_on < ?
       GROUP BY month, currency, category ORDER BY month, currency, category`,
      `${fromMonth}-01`,
      `${toMonth}-99`,
    );
  }

  topMerchants(month: string, limit: number): MerchantTotal[] {
    const merchants = selectAll(
      this.db,
      (row) => camelRecord(row, merchantColumns),
      `SELECT merchant, MIN(payee) AS payee, currency, SUM(amount_minor) AS spent_minor,
         COUNT(*) AS count
       FROM money_transactions
       WHERE booked_on >= ? AND booked_on < ? AND amount_minor < 0
       GROUP BY currency, merchant ORDER BY currency, spent_minor, merchant`,
      `${month}-01`,
      `${month}-99`,
    );
    const perCurrency = new Map<string, number>();
    return merchants.filter((merchant) => {
      const shown = perCurrency.get(merchant.currency) ?? 0;
      perCurrency.set(merchant.currency, shown + 1);
      return shown < limit;
    });
  }

  categoryCounts(): Map<string, number> {
    const rows = statement(
      this.db,
      `SELECT COALESCE(category, '') AS category, COUNT(*) AS count
       FROM money_transactions GROUP BY category`,
    ).all() as Array<{ category: string; count: number }>;
    return new Map(rows.map((row) => [row.category, row.count]));
  }

  accounts(): MoneyAccountSummary[] {
    const rows = statement(
      this.db,
      `SELECT t.account AS name, COUNT(*) AS count, MIN(t.booked_on) AS first_on,
         MAX(t.booked_on) AS last_on, a.balance_minor, a.balance_currency, a.balance_on
       FROM money_transactions t LEFT JOIN money_accounts a ON a.name = t.account
       GROUP BY t.account ORDER BY t.account`,
    ).all() as Array<{
      name: string;
      count: number;
      first_on: string;
      last_on: string;
      balance_minor: number | null;
      balance_currency: string | null;
      balance_on: string | null;
    }>;
    return rows.map((row) => ({
      name: row.name,
      transactions: row.count,
      firstOn: row.first_on,
      lastOn: row.last_on,
      ...(row.balance_minor === null || !row.balance_currency || !row.balance_on ? {} : {
        balance: {
          amountMinor: row.balance_minor,
          currency: row.balance_currency,
          on: row.balance_on,
        },
      }),
    }));
  }
}
