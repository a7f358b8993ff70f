/**
 * Money's domain shapes: a statement as a parser reads it, a stored transaction, a learned rule.
 * Amounts are integers in the currency's minor unit (cents), never floats: 12.34 EUR is 1234.
 */

/** Statement formats Radar reads. */
export type StatementFormat = "csv" | "ofx" | "camt053";

/** One booked transaction as a statement gives it (untrusted text). */
export interface StatementTransaction {
  /** The booking date, YYYY-MM-DD. */
  bookedOn: string;
  /** Signed, in minor units: spending is negative. */
  amountMinor: number;
  /** ISO 4217 code. */
  currency: string;
  payee: string;
  description: string;
  /** The account's balance after this transaction, when the statement says. */
  balanceMinor?: number;
  /** The bank's own transaction id (OFX FITID, CAMT AcctSvcrRef/NtryRef), when present. */
  bankId?: string;
  /** Where it was in the file (1-based line or entry), for messages. */
  row: number;
}

/** A balance the statement states (closing booked balance), in minor units. */
export interface StatementBalance {
  amountMinor: number;
  currency: string;
  /** YYYY-MM-DD. */
  on: string;
}

/** One account's part of a statement file. */
export interface StatementAccount {
  /** The account number or IBAN the file names, if it names one. */
  accountId?: string;
  /** The account's currency the file states, if it does. */
  currency?: string;
  transactions: StatementTransaction[];
  closingBalance?: StatementBalance;
}

/** A parsed statement file (OFX and CAMT may hold several accounts). */
export interface ParsedStatement {
  format: StatementFormat;
  accounts: StatementAccount[];
}

/** How a transaction got its category. */
export type CategorySource = "rule" | "learned" | "model" | "user";

/** A stored transaction: what the statement gave, in an account, with its merchant and category. */
export interface MoneyTransaction extends Omit<StatementTransaction, "row"> {
  id: number;
  account: string;
  /** The payee reduced to a stable key (`merchantKey`): what rules and alerts group by. */
  merchant: string;
  category?: string;
  categorySource?: CategorySource;
  importId: number;
}

/** A rule learned from a correction: this merchant's transactions go to this category. */
export interface LearnedRule {
  merchant: string;
  category: string;
  createdAt: string;
}

/** The record of one imported file. */
export interface MoneyImport {
  id: number;
  /** sha256 of the file's bytes. */
  fileHash: string;
  fileName: string;
  account: string;
  format: StatementFormat;
  added: number;
  duplicates: number;
  importedAt: string;
  /** Why the file could not be imported (it is not tried again until it changes). */
  error?: string;
}

/** What is wrong with a statement file, and where (1-based row or line), as one line. */
export class StatementProblem extends Error {
  constructor(message: string, readonly row?: number) {
    super(message);
    this.name = "StatementProblem";
  }
}
