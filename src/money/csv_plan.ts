/**
 * How a CSV statement is read: with the account's configured mapping (`money.accounts[].csv`),
 * else with the mapping the person confirmed for it before (when this file's header still has
 * those columns), else with a detected one that is shown to the person first and remembered
 * only after a yes. Without a way to ask (the watched folder), a CSV needs one of the first two.
 */
import type { CsvMappingConfig } from "../config/money_schema.ts";
import type { CsvOverrides, CsvPreview } from "./money_book.ts";
import { type StatementAccount, StatementProblem } from "./money.ts";
import { formatMoney } from "./money_amounts.ts";
import {
  type CsvMapping,
  describeMapping,
  detectMapping,
  parseSavedMapping,
  withoutEmpty,
} from "./csv_mapping.ts";
import type * as Parsers from "./statement_parsers.ts";

/** What reading one CSV needs. */
export interface CsvPlanInput {
  parsers: typeof Parsers;
  text: string;
  fileName: string;
  /** The file's path, for the message that asks to confirm its columns. */
  filePath: string;
  account: string;
  currency?: string;
  maxRows: number;
  configured?: CsvMappingConfig;
  /** The remembered mapping (JSON), if any. */
  saved?: string;
  overrides?: CsvOverrides;
  confirm?: (preview: CsvPreview) => Promise<boolean>;
}

/** The statement, and the mapping to remember when it was confirmed now. */
export interface CsvPlan {
  statement: StatementAccount;
  remember?: CsvMapping;
}

/** The configured mapping with the command line's overrides (its columns must be named). */
function fromConfig(
  configured: Partial<CsvMappingConfig> = {},
  overrides: CsvOverrides = {},
): Partial<CsvMapping> {
  const { delimiter, date, date_format: dateFormat, ...columns } = configured;
  const merged = { delimiter, date, dateFormat, ...columns, ...overrides };
  return withoutEmpty(merged as Partial<CsvMapping>);
}

function preview(
  input: CsvPlanInput,
  mapping: CsvMapping,
  statement: StatementAccount,
): CsvPreview {
  return {
    account: input.account,
    fileName: input.fileName,
    mapping: describeMapping(mapping),
    sample: statement.transactions.slice(0, 3).map((row) =>
      `${row.bookedOn}  ${formatMoney(row.amountMinor, row.currency)}  ${row.payee.slice(0, 60)}` +
      (row.balanceMinor === undefined
        ? ""
        : `  (balance ${formatMoney(row.balanceMinor, row.currency)})`)
    ),
    count: statement.transactions.length,
  };
}

/** The currency an amount column's name states: "Betrag (EUR)", "Amount in GBP". */
function currencyInHeader(column: string | undefined): string | undefined {
  return /(?:\(|\bin\s+)([A-Z]{3})\)?\s*$/.exec(column ?? "")?.[1];
}

/** Reads a CSV statement, asking for a yes when its mapping was only detected. */
export async function planCsv(input: CsvPlanInput): Promise<CsvPlan> {
  const { parsers } = input;
  const given = fromConfig(input.configured, input.overrides);
  const hasOverrides = Object.values(input.overrides ?? {}).some((value) => value);
  const saved = hasOverrides ? undefined : parseSavedMapping(input.saved);
  const configuredComplete = input.configured !== undefined && given.date &&
    (given.amount || (given.debit && given.credit));
  const records = parsers.readCsvRecords(
    input.text,
    given.delimiter ?? saved?.delimiter ?? "",
    input.maxRows,
  );
  // A remembered mapping is used only while the file still has its columns.
  if (saved && !configuredComplete && saved.delimiter === records.delimiter) {
    const header = parsers.findHeader(records, saved);
    if (header >= 0 || /^#?\d+$/.test(saved.date)) {
      const currency = input.currency ?? currencyInHeader(saved.amount ?? saved.debit);
      return { statement: parsers.csvStatement(records, header, saved, currency) };
    }
  }
  const headerIndex = parsers.findHeader(
    records,
    given.date
      ? { delimiter: records.delimiter, decimal: ".", dateFormat: "", ...given, date: given.date }
      : undefined,
  );
  const header = headerIndex >= 0 ? records.rows[headerIndex] : undefined;
  const detection = detectMapping(
    records.delimiter,
    header,
    records.rows.slice(headerIndex + 1).slice(0, 500), // the first rows under the header
    given,
  );
  if (!detection.mapping) {
    throw new StatementProblem(
      `cannot tell its columns: ${detection.problems.join("; ")}` +
        (header
          ? ` (columns: ${header.slice(0, 12).map((cell) => cell.slice(0, 30)).join(", ")})`
          : ""),
    );
  }
  const mapping = detection.mapping;
  const currency = input.currency ?? currencyInHeader(mapping.amount ?? mapping.debit);
  const statement = parsers.csvStatement(records, headerIndex, mapping, currency);
  if (configuredComplete) return { statement };
  if (!input.confirm) {
    throw new StatementProblem(
      `its columns are not confirmed yet: run \`radar money import ${input.filePath} --account ` +
        `${input.account}\` once at a terminal (or set money.accounts[].csv)`,
    );
  }
  if (!await input.confirm(preview(input, mapping, statement))) {
    throw new StatementProblem("not imported: the columns were not confirmed");
  }
  return { statement, remember: mapping };
}
