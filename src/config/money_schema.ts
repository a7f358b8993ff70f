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
  delimiter: z.enum([",", ";", "\t", "|", ""]).default("").describe(
    "The column separator; empty: detected.",
  ),
  date: z.string().max(100).default("").describe("The booking date's column."),
  date_format: z.string().regex(/^[DMY./ -]{4,12}$/, "expected e.g. DD.MM.YYYY").or(z.literal(""))
    .default("").describe(
      "e.g. `DD.MM.YYYY` (`DD`, `D`, `MM`, `M`, `MMM`, `YYYY`, `YY` and `.` `/` `-` space); empty: detected, never guessed when dates read two ways.",
    ),
  amount: z.string().max(100).default("").describe(
    "One signed amount column, or `debit` and `credit` columns.",
  ),
  debit: z.string().max(100).default("").describe("Money out, when not one `amount` column."),
  credit: z.string().max(100).default("").describe("Money in, when not one `amount` column."),
  payee: z.string().max(100).default("").describe("The payee's column."),
  description: z.string().max(100).default("").describe("The booking text's column."),
  balance: z.string().max(100).default("").describe("The balance after the booking."),
  currency: z.string().max(100).default("").describe("The currency's column."),
  decimal: z.enum([".", ",", ""]).default("").describe("The decimal mark; empty: detected."),
}).describe(
  "The CSV column mapping: each column by its header text or its 1-based number; empty: not in the file.",
);

/** One account. */
export const moneyAccount = z.object({
  name: z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,39}$/u, "expected a short name")
    .describe("A short name; a sub-folder of `money.folder` with this name holds its statements."),
  currency: currency.default("").describe("ISO 4217 code, e.g. EUR; empty: `money.currency`."),
  number: z.string().max(40).default("").describe(
    "The IBAN or account number OFX and CAMT files name (spaces ignored; a suffix matches).",
  ),
  files: z.string().max(200).default("").describe(
    'File names in the watched folder that are this account\'s (glob, e.g. `"giro-*.csv"`).',
  ),
  balance_floor: amount.optional().describe(
    "An event when the balance falls below this (whole units); absent: no floor.",
  ),
  csv: csvMappingSection.optional().describe(
    "Its CSV columns; absent: detected on the first import and remembered after a yes.",
  ),
});

/** A rule: transactions whose payee or description matches go to `category`. */
const moneyRule = z.object({
  match: z.string().min(1).max(500).refine(isRegExp, "expected a valid regular expression")
    .describe(
      'A case-insensitive regular expression over "payee description", e.g. `"rewe|edeka"`.',
    ),
  category: categoryName.describe("One of `money.categories`."),
  min: amount.optional().describe(
    "Only amounts at least this (whole units; spending is negative).",
  ),
  max: amount.optional().describe("Only amounts at most this."),
  account: z.string().max(40).optional().describe("Only this account's transactions."),
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
  folder: z.string().default("").describe(
    "A folder whose new statement files `radar serve` imports (a sub-folder named after an account is that account's); empty: none.",
  ),
  check_every_minutes: z.number().int().min(minEveryMinutes).max(maxEveryMinutes).default(5)
    .describe("Minutes between looks at the folder."),
  max_file_mib: z.number().positive().max(200).default(10).describe(
    "Larger files are refused.",
  ),
  max_rows: z.number().int().positive().max(1_000_000).default(50_000).describe(
    "Files with more transactions are refused.",
  ),
  currency: currency.default("").describe(
    "The currency of accounts that name none (and of files that state none), e.g. EUR.",
  ),
  categories: z.array(categoryName).min(1).max(60).default(defaultCategories).refine(
    (names) => new Set(names).size === names.length,
    "category names must be unique",
  ).describe("Offered to the model as an enum, and to corrections."),
  rules: z.array(moneyRule).max(500).default([]).describe(
    "Applied before the model; corrections (`radar money categorize ID CATEGORY`) are learned too.",
  ),
  accounts: z.array(moneyAccount).max(50).default([]).refine(
    (accounts) => new Set(accounts.map((account) => account.name)).size === accounts.length,
    "account names must be unique",
  ).describe("Optional; OFX/CAMT files name their account themselves."),
  categorize_with_model: z.boolean().default(true).describe(
    "Ask the model for the category of what no rule decides, in batches (the fast model when set).",
  ),
  batch_size: z.number().int().min(1).max(100).default(25).describe(
    "Transactions per model request.",
  ),
  alerts: z.object({
    new_merchant_above: amount.default(50).describe(
      "A first charge from a merchant of at least this much (whole units); 0: off.",
    ),
    repeat_same_day: z.boolean().default(true).describe(
      "Two equal charges from one merchant on one day.",
    ),
    subscription_increase: z.boolean().default(true).describe("A monthly charge that went up."),
    recent_days: z.number().int().min(1).max(366).default(10).describe(
      "Only transactions booked this many days before now raise events.",
    ),
  }).prefault({}).describe("Which surprises become heartbeat events."),
}).describe(
  "Bank and card statements: a watched folder, accounts, categories, rules and alerts.",
).superRefine((money, context) => {
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
