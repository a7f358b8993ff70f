/** SQLite rows of money: imported files, transactions, learned rules, confirmed CSV mappings. */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { LearnedRule, MoneyImport, MoneyTransaction } from "../../money/money.ts";
import type {
  AccountBalance,
  MoneyFilter,
  MoneyStore,
  NewMoneyTransaction,
} from "../../money/money_store.ts";
import { statement } from "./statements.ts";
import { insert, write } from "./write.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { setAccountColumns } from "./money_accounts.ts";
import { hasMoneyTransactions } from "./money_presence.ts";

/** The columns of a transaction, in its record's key order (NULL ones left out). */
const transactionColumns = columnsOf<MoneyTransaction>()(
  `id account booked_on amount_minor currency payee description merchant balance_minor bank_id
   import_id category category_source`,
);

/** The columns of an import, in its record's key order (a NULL error left out). */
const importColumns = columnsOf<MoneyImport>()(
  "id file_hash file_name account format added duplicates imported_at error",
);

/** The transaction columns as a SELECT list. */
const transactionSelect = transactionColumns.map(({ column }) => column).join(", ");

/** A stored row as a transaction. */
function transactionOf(row: Row): MoneyTransaction {
  return camelRecord(row, transactionColumns, "omitted");
}

function importOf(row: Row): MoneyImport {
  return camelRecord(row, importColumns, "omitted");
}

/** The money store over one database. */
export class SqliteMoneyStore implements MoneyStore {
  constructor(private readonly db: DatabaseSync) {}

  #rows(sql: string, ...params: SQLInputValue[]): MoneyTransaction[] {
    return selectAll(this.db, transactionOf, sql, ...params);
  }

  /** The import of the file with this sha256, if any (a failed one too). */
  findImport(fileHash: string): MoneyImport | undefined {
    const sql = "SELECT * FROM money_imports WHERE file_hash = ?";
    return selectOne(this.db, importOf, sql, fileHash);
  }

  /** Starts the record of a file's import (a failed record of the same bytes is replaced). */
  startImport(...[entry, at]: Parameters<MoneyStore["startImport"]>): number {
    write(
      this.db,
      "the statement import",
      "DELETE FROM money_imports WHERE file_hash = ? AND error IS NOT NULL",
      entry.fileHash,
    );
    return insert(
      this.db,
      "the statement import",
      `INSERT INTO money_imports (file_hash, file_name, account, format, imported_at)
       VALUES (?, ?, ?, ?, ?)`,
      entry.fileHash,
      entry.fileName,
      entry.account,
      entry.format,
      at.toISOString(),
    );
  }

  /** Writes the counts of a finished import. */
  finishImport(id: number, added: number, duplicates: number): void {
    write(
      this.db,
      "the statement import",
      "UPDATE money_imports SET added = ?, duplicates = ? WHERE id = ?",
      added,
      duplicates,
      id,
    );
  }

  /** Records a file that could not be imported (replacing an older failure of the same bytes). */
  recordFailedImport(...[entry, at]: Parameters<MoneyStore["recordFailedImport"]>): void {
    write(
      this.db,
      "the failed statement import",
      `INSERT INTO money_imports (file_hash, file_name, account, imported_at, error)
       VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (file_hash) DO UPDATE SET file_name = ?2, account = ?3, imported_at = ?4,
         error = ?5 WHERE money_imports.error IS NOT NULL`,
      entry.fileHash,
      entry.fileName,
      entry.account,
      at.toISOString(),
      entry.error,
    );
  }

  /** The newest imports, newest first. */
  recentImports(limit: number): MoneyImport[] {
    const sql = "SELECT * FROM money_imports ORDER BY id DESC LIMIT ?";
    return selectAll(this.db, importOf, sql, limit);
  }

  /** Whether the account has any transaction stored (any account when absent). */
  hasTransactions(account?: string): boolean {
    if (account === undefined) return hasMoneyTransactions(this.db);
    return statement(this.db, "SELECT 1 FROM money_transactions WHERE account = ? LIMIT 1")
      .get(account) !== undefined;
  }

  /**
   * Stores a transaction unless it is already there. With a bank id: a row with that id, or a
   * row stored without an id under the same content key (an export without ids of the same
   * booking; it gets the id now). Without one: any row under the same content key.
   */
  add(transaction: NewMoneyTransaction): number | undefined {
    const { account, bankId, contentKey } = transaction;
    if (bankId !== undefined) {
      if (
        statement(this.db, "SELECT 1 FROM money_transactions WHERE account = ? AND bank_id = ?")
          .get(account, bankId)
      ) return undefined;
      const twin = statement(
        this.db,
        `SELECT id FROM money_transactions
         WHERE account = ? AND content_key = ? AND bank_id IS NULL LIMIT 1`,
      ).get(account, contentKey) as { id: number } | undefined;
      if (twin) {
        write(
          this.db,
          "the transaction",
          "UPDATE money_transactions SET bank_id = ? WHERE id = ?",
          bankId,
          twin.id,
        );
        return undefined;
      }
    } else if (
      statement(this.db, "SELECT 1 FROM money_transactions WHERE account = ? AND content_key = ?")
        .get(account, contentKey)
    ) return undefined;
    return insert(
      this.db,
      "the transaction",
      `INSERT INTO money_transactions (account, booked_on, amount_minor, currency, payee,
         description, merchant, balance_minor, bank_id, content_key, import_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      account,
      transaction.bookedOn,
      transaction.amountMinor,
      transaction.currency,
      transaction.payee,
      transaction.description,
      transaction.merchant,
      transaction.balanceMinor ?? null,
      bankId ?? null,
      contentKey,
      transaction.importId,
    );
  }

  get(id: number): MoneyTransaction | undefined {
    return this.#rows(`SELECT ${transactionSelect} FROM money_transactions WHERE id = ?`, id)[0];
  }

  list(filter: MoneyFilter): MoneyTransaction[] {
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    if (filter.month) {
      where.push("booked_on >= ? AND booked_on < ?");
      params.push(`${filter.month}-01`, `${filter.month}-99`);
    }
    if (filter.account) {
      where.push("account = ?");
      params.push(filter.account);
    }
    if (filter.uncategorized) where.push("category IS NULL");
    else if (filter.category) {
      where.push("category = ?");
      params.push(filter.category);
    }
    return this.#rows(
      `SELECT ${transactionSelect} FROM money_transactions
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY booked_on DESC, id DESC LIMIT ? OFFSET ?`,
      ...params,
      filter.limit,
      filter.offset ?? 0,
    );
  }

  /** Uncategorised transactions the model has not been asked about, oldest first. */
  pendingForModel(limit: number): MoneyTransaction[] {
    return this.#rows(
      `SELECT ${transactionSelect} FROM money_transactions
       WHERE category IS NULL AND model_asked_at IS NULL ORDER BY id LIMIT ?`,
      limit,
    );
  }

  setCategories(...[items, at]: Parameters<MoneyStore["setCategories"]>): void {
    for (const item of items) {
      write(
        this.db,
        "the category",
        `UPDATE money_transactions SET category = ?, category_source = ?, categorized_at = ?
         WHERE id = ?`,
        item.category,
        item.source,
        at.toISOString(),
        item.id,
      );
    }
  }

  markModelAsked(ids: readonly number[], at: Date): void {
    for (const id of ids) {
      write(
        this.db,
        "the categorisation",
        "UPDATE money_transactions SET model_asked_at = ? WHERE id = ?",
        at.toISOString(),
        id,
      );
    }
  }

  recategorizeMerchant(merchant: string, category: string, at: Date): number {
    return write(
      this.db,
      "the categories",
      `UPDATE money_transactions SET category = ?, category_source = 'learned', categorized_at = ?
       WHERE merchant = ? AND (category_source IS NULL OR category_source != 'user')
         AND (category IS NULL OR category != ?)`,
      category,
      at.toISOString(),
      merchant,
      category,
    ).changes;
  }

  merchantHistory(
    ...[account, merchant, before, limit]: Parameters<MoneyStore["merchantHistory"]>
  ): MoneyTransaction[] {
    return this.#rows(
      `SELECT ${transactionSelect} FROM money_transactions
       WHERE account = ? AND merchant = ? AND booked_on < ?
       ORDER BY booked_on DESC, id DESC LIMIT ?`,
      account,
      merchant,
      before,
      limit,
    );
  }

  merchantDay(account: string, merchant: string, day: string): MoneyTransaction[] {
    return this.#rows(
      `SELECT ${transactionSelect} FROM money_transactions
       WHERE account = ? AND merchant = ? AND booked_on = ? ORDER BY id LIMIT 50`,
      account,
      merchant,
      day,
    );
  }

  learnedRules(): LearnedRule[] {
    return (statement(
      this.db,
      "SELECT merchant, category, created_at FROM money_rules ORDER BY merchant",
    ).all() as Array<{ merchant: string; category: string; created_at: string }>).map((row) => ({
      merchant: row.merchant,
      category: row.category,
      createdAt: row.created_at,
    }));
  }

  learnRule(merchant: string, category: string, at: Date): void {
    write(
      this.db,
      "the learned rule",
      `INSERT INTO money_rules (merchant, category, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (merchant) DO UPDATE SET category = ?2, created_at = ?3`,
      merchant,
      category,
      at.toISOString(),
    );
  }

  savedMapping(account: string): string | undefined {
    const row = statement(this.db, "SELECT csv_mapping FROM money_accounts WHERE name = ?")
      .get(account) as { csv_mapping: string | null } | undefined;
    return row?.csv_mapping ?? undefined;
  }

  saveMapping(account: string, mapping: string, at: Date): void {
    setAccountColumns(this.db, "the CSV mapping", account, {
      csv_mapping: mapping,
      mapping_saved_at: at.toISOString(),
    });
  }

  recordBalance(account: string, balance: AccountBalance): void {
    setAccountColumns(this.db, "the balance", account, {
      balance_minor: balance.amountMinor,
      balance_currency: balance.currency,
      balance_on: balance.on,
    }, "balance_on");
  }
}
