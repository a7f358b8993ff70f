/**
 * Money: bank and card statements read from a watched folder or imported by hand, categorised by
 * rules and the model, reported by month. The ledger (`money_ledger.ts`, the `MoneyBook` port in
 * `money_book.ts`) is what `radar money`, /money and the `money` tool call; imports
 * (`statement_import.ts`) parse CSV (`csv_*.ts`), OFX (`ofx_*.ts`) and CAMT (`camt_statement.ts`)
 * into integer minor units (`money_amounts.ts`); `money_rules.ts`, `money_alerts.ts` and
 * `money_report.ts` are pure; `money_job.ts` is the tick job; `build_money.ts` assembles it once.
 * Other layers import from this face; the SQLite stores implement `money_store.ts` and `money.ts`.
 */
export { buildMoney, type MoneyParts } from "./build_money.ts";
export type { CsvOverrides, CsvPreview, ImportSummary, MoneyBook } from "./money_book.ts";
export type { MoneyTransaction } from "./money.ts";
export { formatMinor, formatMoney } from "./money_amounts.ts";
export { type CurrencyReport, isMonth, type MoneyReport, monthsBefore } from "./money_report.ts";
export { type MappedField, mappedFields } from "./csv_mapping.ts";
