/**
 * A CSV statement's column mapping: which column holds the date (and in which format), the
 * amount (or debit and credit), payee, description, balance and currency, and the decimal
 * separator. Detected from the header names banks use (English, German, French, Spanish, Dutch,
 * Italian) and the values under them; shown to the person to confirm; then remembered.
 */
import type { DecimalSeparator } from "./money_amounts.ts";
import { detectDateFormat } from "./date_formats.ts";

/** A confirmed (or configured) mapping. Columns are header texts, or "#N" (1-based). */
export interface CsvMapping {
  delimiter: string;
  date: string;
  dateFormat: string;
  amount?: string;
  debit?: string;
  credit?: string;
  payee?: string;
  description?: string;
  balance?: string;
  currency?: string;
  decimal: DecimalSeparator;
}

/** The fields a mapping names, in the order they are shown. */
export const mappedFields = [
  "date",
  "amount",
  "debit",
  "credit",
  "payee",
  "description",
  "balance",
  "currency",
] as const;

/** One mapped field. */
export type MappedField = (typeof mappedFields)[number];

/** Header names per field, normalised (lower case, no accents, letters and digits only). */
const headerNames: Record<MappedField, string[]> = {
  date: [
    "date",
    "bookingdate",
    "buchungstag",
    "buchungsdatum",
    "datum",
    "transactiondate",
    "posteddate",
    "postingdate",
    "posted",
    "dateoperation",
    "datecomptable",
    "fecha",
    "fechaoperacion",
    "data",
    "dataoperazione",
    "boekdatum",
    "transaktionsdatum",
    "valuedate",
    "valuta",
    "valutadatum",
  ],
  amount: [
    "amount",
    "betrag",
    "umsatz",
    "transactionamount",
    "montant",
    "importe",
    "importo",
    "bedrag",
    "betrageur",
    "amounteur",
    "betragineur",
    "value",
  ],
  debit: [
    "debit",
    "debitamount",
    "soll",
    "lastschrift",
    "withdrawal",
    "withdrawals",
    "paidout",
    "moneyout",
    "ausgang",
    "belastung",
    "debet",
  ],
  credit: [
    "credit",
    "creditamount",
    "haben",
    "gutschrift",
    "deposit",
    "deposits",
    "paidin",
    "moneyin",
    "eingang",
  ],
  payee: [
    "payee",
    "payeename",
    "name",
    "beguenstigterzahlungspflichtiger",
    "begunstigterzahlungspflichtiger",
    "zahlungsempfanger",
    "zahlungsempfaenger",
    "empfanger",
    "empfaenger",
    "auftraggeberempfanger",
    "auftraggeberbegunstigter",
    "nameauftraggeberbegunstigter",
    "merchant",
    "counterparty",
    "beneficiary",
    "gegenpartei",
    "tegenrekeninghouder",
    "naamomschrijving",
  ],
  description: [
    "description",
    "verwendungszweck",
    "memo",
    "reference",
    "details",
    "narrative",
    "buchungstext",
    "transactiondetails",
    "mitteilung",
    "libelle",
    "omschrijving",
    "mededelingen",
    "concepto",
    "descrizione",
    "text",
  ],
  balance: ["balance", "saldo", "kontostand", "runningbalance", "solde", "balanceafter"],
  currency: ["currency", "waehrung", "wahrung", "whrg", "ccy", "devise", "moneda"],
};

/** A header cell as the name tables spell it. */
function normalizeHeader(cell: string): string {
  return cell.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** The index of the column `reference` names ("#3" or a header text), or -1. */
export function columnIndex(header: readonly string[] | undefined, reference: string): number {
  const number = /^#?(\d{1,3})$/.exec(reference.trim());
  if (number) return Number(number[1]) - 1;
  if (!header) return -1;
  const exact = header.findIndex((cell) => cell.trim() === reference.trim());
  if (exact >= 0) return exact;
  const wanted = normalizeHeader(reference);
  return header.findIndex((cell) => normalizeHeader(cell) === wanted);
}

/** Which field each header cell names (the first synonym in table order wins). */
function guessColumns(header: readonly string[]): Partial<Record<MappedField, string>> {
  const normalized = header.map(normalizeHeader);
  const found: Partial<Record<MappedField, string>> = {};
  const used = new Set<number>();
  for (const field of mappedFields) {
    for (const name of headerNames[field]) {
      const index = normalized.findIndex((cell, at) => !used.has(at) && cell === name);
      if (index >= 0) {
        found[field] = header[index].trim();
        used.add(index);
        break;
      }
    }
  }
  // "Amount (EUR)", "Betrag in EUR": a known name followed by a currency code.
  if (!found.amount) {
    const index = normalized.findIndex((cell, at) =>
      !used.has(at) && /^(amount|betrag|umsatz|montant|importe|bedrag)(in)?[a-z]{3}$/.test(cell)
    );
    if (index >= 0) found.amount = header[index].trim();
  }
  if (!found.payee && found.description) {
    found.payee = found.description;
    delete found.description;
  }
  return found;
}

/** Whether a row looks like the header: it names a date column and an amount or debit/credit. */
export function looksLikeHeader(row: readonly string[]): boolean {
  const columns = guessColumns(row);
  return Boolean(columns.date && (columns.amount || (columns.debit && columns.credit)));
}

/** The decimal separator the amounts use (`fallback` when the values do not tell). */
function detectDecimal(
  values: readonly string[],
  fallback: DecimalSeparator,
): DecimalSeparator {
  let comma = 0;
  let dot = 0;
  for (const value of values.slice(0, 500)) {
    if (/\d\.\d{3},\d/.test(value) || /\d,\d{1,2}(?!\d)/.test(value)) comma++;
    if (/\d,\d{3}\.\d/.test(value) || /\d\.\d{1,2}(?!\d)/.test(value)) dot++;
  }
  if (comma === dot) return fallback;
  return comma > dot ? "," : ".";
}

/** What detection found in a CSV, and what it could not decide. */
export interface CsvDetection {
  mapping?: CsvMapping;
  /** One line per thing the person must say (a missing column, an ambiguous date format). */
  problems: string[];
}

/**
 * Detects a mapping from the header row (absent: the file has none, columns are numbers) and the
 * data rows under it; `given` (the command line's `--map`, `--date-format`, `--decimal`) wins
 * over every guess. Date formats that read every value two ways are a problem to resolve, never
 * a guess.
 */
export function detectMapping(
  delimiter: string,
  header: readonly string[] | undefined,
  rows: ReadonlyArray<readonly string[]>,
  given: Partial<CsvMapping> = {},
): CsvDetection {
  const columns = { ...(header ? guessColumns(header) : {}), ...withoutEmpty(given) };
  const problems: string[] = [];
  if (!columns.date) problems.push("no date column found (--map date=COLUMN)");
  if (!columns.amount && !(columns.debit && columns.credit)) {
    problems.push("no amount column (or debit and credit columns) found (--map amount=COLUMN)");
  }
  if (problems.length) return { problems };
  // Rows of another width than the header are preamble or trailer lines ("closing balance").
  const dataRows = header ? rows.filter((row) => row.length === header.length) : rows;
  const valuesOf = (reference?: string) => {
    if (!reference) return [];
    const index = columnIndex(header, reference);
    return index < 0 ? [] : dataRows.map((row) => row[index] ?? "").filter((value) => value.trim());
  };
  let dateFormat = columns.dateFormat ?? "";
  if (!dateFormat) {
    const guess = detectDateFormat(valuesOf(columns.date));
    if ("format" in guess) dateFormat = guess.format;
    else if ("ambiguous" in guess) {
      problems.push(
        `the dates (e.g. "${guess.example}") read as ${guess.ambiguous.join(" or ")} ` +
          `(--date-format ${guess.ambiguous[0]})`,
      );
    } else problems.push(`"${guess.example}" is not a date format Radar knows (--date-format)`);
  }
  const amounts = [columns.amount, columns.debit, columns.credit, columns.balance]
    .flatMap((reference) => valuesOf(reference));
  const decimal = columns.decimal ?? detectDecimal(amounts, delimiter === ";" ? "," : ".");
  if (problems.length) return { problems };
  return {
    mapping: { ...columns, delimiter, date: columns.date!, dateFormat, decimal },
    problems,
  };
}

/** The fields of a mapping that say something (no undefined, no empty text). */
export function withoutEmpty(given: Partial<CsvMapping>): Partial<CsvMapping> {
  return Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined && value !== ""),
  ) as Partial<CsvMapping>;
}

/** The mapping in words, one field a line, for the confirmation and `radar money` listings. */
export function describeMapping(mapping: CsvMapping): string[] {
  const delimiter = mapping.delimiter === "\t" ? "tab" : `"${mapping.delimiter}"`;
  const lines = [`delimiter ${delimiter}, decimal "${mapping.decimal}"`];
  lines.push(`date: ${mapping.date} (${mapping.dateFormat})`);
  for (const field of mappedFields.slice(1)) {
    const column = mapping[field];
    if (column) lines.push(`${field}: ${column}`);
  }
  return lines;
}

/** Parses a remembered mapping (JSON); undefined when it is not one. */
export function parseSavedMapping(text: string | undefined): CsvMapping | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<CsvMapping>;
    if (
      typeof value.delimiter !== "string" || typeof value.date !== "string" ||
      typeof value.dateFormat !== "string" || (value.decimal !== "." && value.decimal !== ",")
    ) return undefined;
    return value as CsvMapping;
  } catch {
    return undefined;
  }
}
