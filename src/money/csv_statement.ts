/**
 * CSV statements through npm csv-parse: the delimiter found by trying the usual ones, the header
 * row found below any preamble (account number, period, opening balance), then every row read
 * with the mapping. A row that is not a transaction (blank, a trailing "closing balance" line)
 * is skipped; a transaction row with a bad date or amount stops the import with its line number.
 */
import { parse } from "csv-parse/sync";
import { parseAmountMinor } from "./money_amounts.ts";
import { type StatementAccount, StatementProblem, type StatementTransaction } from "./money.ts";
import { cleanStatementText, maxDescriptionChars, maxPayeeChars } from "./money_text.ts";
import { columnIndex, type CsvMapping, looksLikeHeader } from "./csv_mapping.ts";
import { type MappedField, mappedFields } from "./csv_mapping.ts";
import { parseStatementDate } from "./date_formats.ts";
import { firstLine } from "../core/errors.ts";

/** A CSV file's records and the line each ends on. */
export interface CsvRecords {
  delimiter: string;
  rows: string[][];
  lines: number[];
}

/** The longest record accepted (characters). */
const maxRecordChars = 100_000;
/** Preamble lines above the header that are looked through. */
const maxPreambleRows = 40;

function parseRecords(text: string, delimiter: string, to: number): CsvRecords {
  const records = parse(text, {
    delimiter,
    bom: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: maxRecordChars,
    to,
  }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  return {
    delimiter,
    rows: records.map((entry) => entry.record),
    lines: records.map((entry) => entry.info.lines),
  };
}

/**
 * The delimiter that splits a header row out of the first lines; else the one whose rows share a
 * column count most, wide tables counting more (a "," inside decimal-comma amounts must not win).
 */
function detectDelimiter(text: string): string {
  const sample = text.split(/\r?\n/).slice(0, 60).join("\n");
  let best = { delimiter: ",", score: -1 };
  for (const delimiter of [";", ",", "\t", "|"]) {
    let rows: string[][];
    try {
      rows = parseRecords(sample, delimiter, 60).rows;
    } catch {
      continue;
    }
    const counts = new Map<number, number>();
    for (const row of rows) {
      if (row.length > 1) counts.set(row.length, (counts.get(row.length) ?? 0) + 1);
    }
    const header = rows.some((row) => looksLikeHeader(row)) ? 1_000_000 : 0;
    const score = header +
      Math.max(0, ...[...counts].map(([columns, count]) => count * (columns - 1)));
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** Reads the records of a CSV statement (at most `maxRows` data rows). */
export function readCsvRecords(text: string, delimiter: string, maxRows: number): CsvRecords {
  const chosen = delimiter || detectDelimiter(text);
  let records: CsvRecords;
  try {
    records = parseRecords(text, chosen, maxRows + maxPreambleRows + 1);
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new StatementProblem(
      `not a readable CSV file (${firstLine(error, 160)})`,
      typeof line === "number" ? line : undefined,
    );
  }
  if (records.rows.length > maxRows + maxPreambleRows) {
    throw new StatementProblem(`more than ${maxRows} rows (money.max_rows)`);
  }
  return records;
}

/**
 * The index of the header row: the first row naming the mapping's date and amount columns, or
 * (without a mapping) the first that looks like a header. -1 when there is none.
 */
export function findHeader(records: CsvRecords, mapping?: CsvMapping): number {
  const rows = records.rows.slice(0, maxPreambleRows);
  if (mapping && !/^#?\d+$/.test(mapping.date)) {
    const amountColumn = mapping.amount ?? mapping.debit ?? "";
    return rows.findIndex((row) =>
      columnIndex(row, mapping.date) >= 0 && columnIndex(row, amountColumn) >= 0
    );
  }
  return rows.findIndex((row) => looksLikeHeader(row));
}

/** Reads the transactions with a mapping; `currency` is the account's (or the file's default). */
export function csvStatement(
  records: CsvRecords,
  headerIndex: number,
  mapping: CsvMapping,
  currency: string | undefined,
): StatementAccount {
  const header = headerIndex >= 0 ? records.rows[headerIndex] : undefined;
  const column = (reference?: string) => {
    if (!reference) return -1;
    const index = columnIndex(header, reference);
    if (index < 0) throw new StatementProblem(`the file has no column "${reference}"`);
    return index;
  };
  // Each field's column (-1: not mapped); an unknown column throws, in the fields' order.
  const at = Object.fromEntries(
    mappedFields.map((field) => [field, column(mapping[field])]),
  ) as Record<MappedField, number>;
  if (at.amount < 0 && (at.debit < 0 || at.credit < 0)) {
    throw new StatementProblem("the mapping names no amount column (or debit and credit)");
  }
  const transactions: StatementTransaction[] = [];
  for (let index = headerIndex + 1; index < records.rows.length; index++) {
    const row = records.rows[index];
    const line = records.lines[index];
    const cell = (position: number) => position >= 0 ? (row[position] ?? "").trim() : "";
    const amountCells = [cell(at.amount), cell(at.debit), cell(at.credit)].filter(Boolean);
    const bookedOn = parseStatementDate(cell(at.date), mapping.dateFormat);
    if (!bookedOn) {
      const notTransaction = !cell(at.date) || !amountCells.length ||
        (header !== undefined && row.length !== header.length);
      if (notTransaction) continue;
      throw new StatementProblem(
        `"${cell(at.date).slice(0, 40)}" is not a date in ${mapping.dateFormat}`,
        line,
      );
    }
    const rowCurrency = cell(at.currency).toUpperCase() || currency;
    if (!rowCurrency || !/^[A-Z]{3}$/.test(rowCurrency)) {
      throw new StatementProblem(
        rowCurrency
          ? `"${rowCurrency.slice(0, 10)}" is not a currency code`
          : "no currency: set the account's currency (money.accounts[].currency or --currency)",
        line,
      );
    }
    const amount = (text: string) => {
      const parsed = parseAmountMinor(text, mapping.decimal, rowCurrency);
      if (!parsed.ok) throw new StatementProblem(parsed.reason, line);
      return parsed.minor;
    };
    let amountMinor: number;
    if (at.amount >= 0) {
      if (!cell(at.amount)) throw new StatementProblem("the amount is empty", line);
      amountMinor = amount(cell(at.amount));
    } else {
      if (!cell(at.debit) && !cell(at.credit)) {
        throw new StatementProblem("both debit and credit are empty", line);
      }
      const debit = cell(at.debit) ? Math.abs(amount(cell(at.debit))) : 0;
      const credit = cell(at.credit) ? Math.abs(amount(cell(at.credit))) : 0;
      amountMinor = credit - debit;
    }
    const payee = cleanStatementText(cell(at.payee), maxPayeeChars);
    const description = cleanStatementText(cell(at.description), maxDescriptionChars);
    transactions.push({
      bookedOn,
      amountMinor,
      currency: rowCurrency,
      payee: payee || description.slice(0, maxPayeeChars),
      description: payee ? description : "",
      ...(cell(at.balance) ? { balanceMinor: amount(cell(at.balance)) } : {}),
      row: line,
    });
  }
  return { currency, transactions };
}
