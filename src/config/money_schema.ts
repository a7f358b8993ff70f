/**
 * `money:` — bank and card statements: a watched folder, accounts (with their CSV column
 * mapping, currency and balance floor), categories, rules and the thresholds of money's events.
 */
import { z } from "zod";
import { maxEveryMinutes, minEveryMinutes } from "../core/bounds.ts";

const categoryName = z.string().regex(
  /^[a-z0-9][a-z0-9 _-]{0,39}$/,
  "expected a short lower-case name (letters, digits, space, _ -)",
);

const currency = z.string().refine(
  (code) => code === "" || /^[A-Z]{3}$/.test(code),
  "expected an ISO 4217 code such as EUR",
);

/** An amount in whole units of the account's currency (12.5 = 12.50). */
const amount = z.union([z.number().finite(), z.string().regex(/^-?\d{1,12}(\.\d{1,3})?$/)]);

function isRegExp(text: string): boolean {
  try {
    new RegExp(text, "iu");
    return true;
  } catch {
    return false;
  }
}

/**
 * A CSV column: its header text, or its 1-based number. Empty: not in the file.
 * Date formats use DD, D, MM, M, MMM (Jan…), YYYY, YY and the separators . / - and space.
 */
export const csvMappingSection = z.object({
  delimiter: z.enum([",", ";", "\t", "|", ""]).default(""),
  date: z.string().max(100).default(""),
  date_format: z.string().regex(/^[DMY./ -]{4,12}$/, "expected e.g. DD.MM.YYYY").or(z.literal(""))
    .default(""),
  /** One signed amount column, or `debit` and `credit` columns. */
  amount: z.string().max(100).default(""),
  debit: z.string().max(100).default(""),
  credit: z.string().max(100).default(""),
  payee: z.string().max(100).default(""),
  description: z.string().max(100).default(""),
  balance: z.string().max(100).default(""),
  currency: z.string().max(100).default(""),
  decimal: z.enum([".", ",", ""]).default(""),
});

/** One account. */
export const moneyAccount = z.object({
  name: z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,39}$/u, "expected a short name"),
  currency: currency.default(""),
  /** The IBAN or account number OFX and CAMT files name (spaces ignored; a suffix matches). */
  number: z.string().max(40).default(""),
  /** File names in the watched folder that are this account's (glob, e.g. "giro-*.csv"). */
  files: z.string().max(200).default(""),
  /** An event when the balance falls below this (whole units); absent: no floor. */
  balance_floor: amount.optional(),
  csv: csvMappingSection.optional(),
});

/** A rule: transactions whose payee or description matches go to `category`. */
const moneyRule = z.object({
  /** A case-insensitive regular expression over "payee description". */
  match: z.string().min(1).max(500).refine(isRegExp, "expected a valid regular expression"),
  category: categoryName,
  /** Only amounts at least / at most this (whole units; spending is negative). */
  min: amount.optional(),
  max: amount.optional(),
  account: z.string().max(40).optional(),
});

/** The categories offered when none are configured. */
const defaultCategories = [
  "groceries",
  "dining",
  "transport",
  "housing",
  "utilities",
  "subscriptions",
  "shopping",
  "health",
  "travel",
  "entertainment",
  "cash",
  "fees",
  "income",
  "transfers",
  "other",
];

/** The whole `money:` section. */
export const moneySection = z.object({
  /** A folder whose new statement files are imported by `radar serve`; empty: none. */
  folder: z.string().default(""),
  check_every_minutes: z.number().int().min(minEveryMinutes).max(maxEveryMinutes).default(5),
  /** Larger files are refused. */
  max_file_mib: z.number().positive().max(200).default(10),
  /** Files with more transactions are refused. */
  max_rows: z.number().int().positive().max(1_000_000).default(50_000),
  /** The currency of accounts that name none (and of files that state none). */
  currency: currency.default(""),
  categories: z.array(categoryName).min(1).max(60).default(defaultCategories).refine(
    (names) => new Set(names).size === names.length,
    "category names must be unique",
  ),
  rules: z.array(moneyRule).max(500).default([]),
  accounts: z.array(moneyAccount).max(50).default([]).refine(
    (accounts) => new Set(accounts.map((account) => account.name)).size === accounts.length,
    "account names must be unique",
  ),
  /** Ask the model for the category of what no rule decides (the fast model when set). */
  categorize_with_model: z.boolean().default(true),
  /** Transactions per model request. */
  batch_size: z.number().int().min(1).max(100).default(25),
  alerts: z.object({
    /** A first charge from a merchant of at least this much (whole units); 0: off. */
    new_merchant_above: amount.default(50),
    /** Two equal charges from one merchant on one day. */
    repeat_same_day: z.boolean().default(true),
    /** A monthly charge that went up. */
    subscription_increase: z.boolean().default(true),
    /** Only transactions booked this many days before now raise events. */
    recent_days: z.number().int().min(1).max(366).default(10),
  }).prefault({}),
}).superRefine((money, context) => {
  const known = new Set(money.categories);
  money.rules.forEach((rule, index) => {
    if (!known.has(rule.category)) {
      context.addIssue({
        code: "custom",
        path: ["rules", index, "category"],
        message: `"${rule.category}" is not one of money.categories`,
      });
    }
  });
});

/** The money settings. */
export type MoneyConfig = z.infer<typeof moneySection>;
/** One configured account. */
export type MoneyAccountConfig = z.infer<typeof moneyAccount>;
/** One configured CSV mapping. */
export type CsvMappingConfig = z.infer<typeof csvMappingSection>;
