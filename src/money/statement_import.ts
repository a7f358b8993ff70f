/**
 * One statement file into the ledger: read (size-capped), hashed (the same bytes twice is a
 * no-op), parsed by its format, each statement matched to an account, then in ONE transaction:
 * the import record, every transaction not already stored (bank id, else content key), the
 * newest balance, categories from rules, and the alerts it raises. A malformed file changes
 * nothing and is one line naming the file and the row.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { MoneyConfig } from "../config/money_schema.ts";
import { firstLine, UsageError } from "../core/errors.ts";
import type { Clock } from "../core/ports.ts";
import type { ImportRequest, ImportSummary } from "./money_book.ts";
import {
  type MoneyTransaction,
  type ParsedStatement,
  type StatementAccount,
  type StatementFormat,
  StatementProblem,
} from "./money.ts";
import { merchantKey, normalizePayee } from "./money_text.ts";
import { compileRules, ruleCategory } from "./money_rules.ts";
import type { AccountBalance, MoneyAlertState, MoneyStore } from "./money_store.ts";
import type { Transaction } from "../core/work_ports.ts";
import type { EventSink } from "../sources/source_checks.ts";
import { checkMoneyAlerts } from "./money_alerts_check.ts";
import { planCsv } from "./csv_plan.ts";
import {
  accountByFile,
  accountByNumber,
  accountNameFrom,
  configuredAccount,
} from "./statement_accounts.ts";
import { decodeText, readStatementFile, statementFormat } from "./statement_file.ts";
import type { StatementFile } from "./statement_file.ts";

/** What importing needs. */
export interface StatementImportDependencies {
  config: MoneyConfig;
  store: MoneyStore;
  state: MoneyAlertState;
  queue: EventSink;
  transaction: Transaction;
  clock: Clock;
  /** Today (YYYY-MM-DD) in the user's zone: only recent transactions raise events. */
  today: () => string;
}

/** An import request, plus the watched sub-folder's account and file (read once) from the folder. */
export type StatementRequest = ImportRequest & { folderAccount?: string; file?: StatementFile };

/** One statement matched to its account. */
interface AccountPart {
  account: string;
  statement: StatementAccount;
}

/** The one line for a file that cannot be imported (exit 2: the input is bad). */
function importFailure(fileName: string, problem: unknown): UsageError {
  if (problem instanceof StatementProblem) {
    const where = problem.row ? `row ${problem.row}: ` : "";
    return new UsageError(`Cannot import ${fileName}: ${where}${problem.message}`);
  }
  if (problem instanceof UsageError) return problem;
  throw problem;
}

/** What a parser throws that is not a problem it named is the file's fault too (never Radar's). */
function fileProblem(error: unknown): never {
  if (error instanceof StatementProblem || error instanceof UsageError) throw error;
  throw new StatementProblem(
    `unreadable (${firstLine(error, 120)})`,
  );
}

/** Imports one statement file (rules categorise; the model is the caller's next step). */
export async function importStatementFile(
  deps: StatementImportDependencies,
  request: StatementRequest,
): Promise<{ summary: ImportSummary; added: MoneyTransaction[] }> {
  const { config } = deps;
  // Named by its name (the path only when it cannot be read at all).
  let fileName = basename(request.path);
  try {
    const file = request.file ??
      await readStatementFile(request.path, Math.floor(config.max_file_mib * 1048576));
    fileName = file.name;
    const format = statementFormat(file.name, file.bytes);
    const earlier = deps.store.findImport(file.hash);
    if (earlier && earlier.error === undefined) {
      return {
        summary: {
          fileName,
          format,
          alreadyImported: earlier,
          accounts: [],
          byRules: 0,
          alerts: 0,
        },
        added: [],
      };
    }
    const parsers: typeof import("./statement_parsers.ts") = await import(
      new URL("./statement_parsers.ts", import.meta.url).href
    );
    let parts: AccountPart[];
    let remember: { account: string; mapping: string } | undefined;
    if (format === "csv") {
      const account = request.account ??
        accountByFile(config, file.name, request.folderAccount);
      if (!account) {
        throw new StatementProblem(
          "which account is it? pass --account NAME (or set money.accounts[].files)",
        );
      }
      const plan = await planCsv({
        parsers,
        text: decodeText(file.bytes),
        fileName: file.name,
        filePath: request.path,
        account,
        currency: request.currency || configuredAccount(config, account)?.currency ||
          config.currency || undefined,
        maxRows: config.max_rows,
        configured: configuredAccount(config, account)?.csv,
        saved: deps.store.savedMapping(account),
        overrides: request.csv,
        confirm: request.confirm,
      }).catch(fileProblem);
      parts = [{ account, statement: plan.statement }];
      if (plan.remember) remember = { account, mapping: JSON.stringify(plan.remember) };
    } else {
      const fallback = request.currency ||
        (request.account ? configuredAccount(config, request.account)?.currency : undefined) ||
        config.currency || undefined;
      let parsed: ParsedStatement;
      try {
        parsed = format === "ofx"
          ? parsers.ofxStatement(parsers.decodeOfx(file.bytes), config.max_rows, fallback)
          : parsers.camtStatement(decodeText(file.bytes), config.max_rows);
      } catch (error) {
        fileProblem(error);
      }
      parts = parsed.accounts.map((statement) => ({
        account: accountFor(config, request, statement, parsed.accounts.length),
        statement,
      }));
    }
    for (const part of parts) checkCurrency(config, part);
    const at = deps.clock.now();
    return deps.transaction(() => {
      if (remember) deps.store.saveMapping(remember.account, remember.mapping, at);
      return store(deps, { hash: file.hash, name: file.name, format }, parts, at);
    });
  } catch (error) {
    throw importFailure(fileName, error);
  }
}

/** The account of one statement of an OFX or CAMT file. */
function accountFor(
  config: MoneyConfig,
  request: StatementRequest,
  statement: StatementAccount,
  statements: number,
): string {
  if (request.account && statements === 1) return request.account;
  const byNumber = statement.accountId ? accountByNumber(config, statement.accountId) : undefined;
  if (byNumber) return byNumber;
  if (statements === 1 && request.folderAccount) return request.folderAccount;
  if (statement.accountId) return accountNameFrom(statement.accountId);
  throw new StatementProblem("the statement names no account: pass --account NAME");
}

/** A configured account's currency must be the file's. */
function checkCurrency(config: MoneyConfig, part: AccountPart): void {
  const expected = configuredAccount(config, part.account)?.currency;
  const found = part.statement.transactions.find((row) => row.currency !== expected)?.currency;
  if (expected && found) {
    throw new StatementProblem(`it is in ${found}, but account ${part.account} is in ${expected}`);
  }
}

/** The stable content key of a transaction without a bank id. */
function contentKey(
  account: string,
  bookedOn: string,
  amountMinor: number,
  payee: string,
  occurrence: number,
): string {
  return createHash("sha256")
    .update(
      [account, bookedOn, String(amountMinor), normalizePayee(payee), String(occurrence)].join(
        "\n",
      ),
    )
    .digest("hex");
}

/** The newest balance a statement states: its closing balance, else its newest row's. */
function newestBalance(statement: StatementAccount): AccountBalance | undefined {
  if (statement.closingBalance) return statement.closingBalance;
  const rows = statement.transactions;
  const withBalance = rows.filter((row) => row.balanceMinor !== undefined);
  if (!withBalance.length) return undefined;
  // Exports list newest first or oldest first: the newest date wins, and within it the row the
  // file lists last in its own order.
  const newestFirst = rows[0].bookedOn > rows[rows.length - 1].bookedOn;
  const newestDate = withBalance.reduce((max, row) => row.bookedOn > max ? row.bookedOn : max, "");
  const sameDay = withBalance.filter((row) => row.bookedOn === newestDate);
  const row = newestFirst ? sameDay[0] : sameDay[sameDay.length - 1];
  return { amountMinor: row.balanceMinor!, currency: row.currency, on: row.bookedOn };
}

/** Stores the parsed file (inside the caller's transaction). */
function store(
  deps: StatementImportDependencies,
  file: { hash: string; name: string; format: StatementFormat },
  parts: AccountPart[],
  at: Date,
): { summary: ImportSummary; added: MoneyTransaction[] } {
  const { store, config } = deps;
  const importId = store.startImport({
    fileHash: file.hash,
    fileName: file.name,
    account: [...new Set(parts.map((part) => part.account))].join(", ").slice(0, 200),
    format: file.format,
  }, at);
  const baseline = new Set(
    parts.map((part) => part.account).filter((account) => !store.hasTransactions(account)),
  );
  const added: MoneyTransaction[] = [];
  const accounts: ImportSummary["accounts"] = [];
  let duplicates = 0;
  for (const { account, statement } of parts) {
    const occurrences = new Map<string, number>();
    let addedHere = 0;
    let duplicatesHere = 0;
    for (const row of statement.transactions) {
      const sameKey = `${row.bookedOn}\n${row.amountMinor}\n${normalizePayee(row.payee)}`;
      const occurrence = occurrences.get(sameKey) ?? 0;
      occurrences.set(sameKey, occurrence + 1);
      const merchant = merchantKey(row.payee);
      const values = {
        account,
        bookedOn: row.bookedOn,
        amountMinor: row.amountMinor,
        currency: row.currency,
        payee: row.payee,
        description: row.description,
        merchant,
        ...(row.balanceMinor === undefined ? {} : { balanceMinor: row.balanceMinor }),
        ...(row.bankId === undefined ? {} : { bankId: row.bankId }),
        importId,
      };
      const id = store.add({
        ...values,
        contentKey: contentKey(account, row.bookedOn, row.amountMinor, row.payee, occurrence),
      });
      if (id === undefined) duplicatesHere++;
      else {
        addedHere++;
        added.push({ id, ...values });
      }
    }
    const balance = newestBalance(statement);
    if (balance) store.recordBalance(account, balance);
    accounts.push({ account, added: addedHere, duplicates: duplicatesHere });
    duplicates += duplicatesHere;
  }
  store.finishImport(importId, added.length, duplicates);
  const byRules = categorizeByRules(deps, added, at);
  const alerts = checkMoneyAlerts(
    { config, store, state: deps.state, queue: deps.queue },
    added,
    baseline,
    new Set(parts.map((part) => part.account)),
    deps.today(),
    at,
  );
  return {
    summary: { fileName: file.name, format: file.format, accounts, byRules, alerts },
    added,
  };
}

/** Sets the categories the rules give (learned rules first); returns how many got one. */
function categorizeByRules(
  deps: Pick<StatementImportDependencies, "store" | "config">,
  transactions: MoneyTransaction[],
  at: Date,
): number {
  const rules = compileRules(deps.config.rules);
  const learned = new Map(deps.store.learnedRules().map((rule) => [rule.merchant, rule.category]));
  const known = new Set(deps.config.categories);
  const decided = transactions.flatMap((transaction) => {
    const found = ruleCategory(transaction, rules, learned);
    if (!found || !known.has(found.category)) return [];
    transaction.category = found.category;
    transaction.categorySource = found.source;
    return [{ id: transaction.id, ...found }];
  });
  deps.store.setCategories(decided, at);
  return decided.length;
}
