/**
 * Schema 34: money. Imported statement files (by content hash, failed ones too), transactions
 * in integer minor units de-duplicated per account by the bank's id or a content key, learned
 * category rules, and per-account memory (confirmed CSV mapping, newest stated balance).
 */
import type { Migration } from "../database.ts";

/** Statement imports, transactions, learned rules, accounts. */
export const moneyMigration: Migration = {
  version: 34,
  name: "034_money",
  sql: `
CREATE TABLE money_imports (
  id INTEGER PRIMARY KEY,
  file_hash TEXT NOT NULL UNIQUE,
  file_name TEXT NOT NULL,
  account TEXT NOT NULL,
  format TEXT NOT NULL DEFAULT '',
  added INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  imported_at TEXT NOT NULL,
  error TEXT
);
CREATE TABLE money_transactions (
  id INTEGER PRIMARY KEY,
  account TEXT NOT NULL,
  booked_on TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  payee TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  merchant TEXT NOT NULL,
  balance_minor INTEGER,
  bank_id TEXT,
  content_key TEXT NOT NULL,
  import_id INTEGER NOT NULL REFERENCES money_imports(id),
  category TEXT,
  category_source TEXT CHECK (category_source IN ('rule', 'learned', 'model', 'user')),
  categorized_at TEXT,
  model_asked_at TEXT
);
CREATE UNIQUE INDEX money_transactions_bank_id ON money_transactions(account, bank_id)
  WHERE bank_id IS NOT NULL;
CREATE INDEX money_transactions_content ON money_transactions(account, content_key);
CREATE INDEX money_transactions_booked ON money_transactions(booked_on);
CREATE INDEX money_transactions_merchant ON money_transactions(account, merchant, booked_on);
CREATE INDEX money_transactions_pending ON money_transactions(id)
  WHERE category IS NULL AND model_asked_at IS NULL;
CREATE TABLE money_rules (
  merchant TEXT PRIMARY KEY,
  category TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE money_accounts (
  name TEXT PRIMARY KEY,
  csv_mapping TEXT,
  mapping_saved_at TEXT,
  balance_minor INTEGER,
  balance_currency TEXT,
  balance_on TEXT
);
`,
};
