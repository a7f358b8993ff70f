/**
 * Category rules, applied before any model: what the user learned Radar by correcting a
 * transaction (merchant → category) wins, then the config's `money.rules` in order (a pattern over
 * payee and description, optional amount bounds and account).
 */
import type { CategorySource, MoneyTransaction } from "./money.ts";
import { configAmountMinor } from "./money_amounts.ts";

/** A `money.rules` entry, compiled. */
export interface CategoryRule {
  pattern: RegExp;
  category: string;
  /** Whole units (spending negative), as configured. */
  min?: number | string;
  max?: number | string;
  account?: string;
}

/** Compiles the config's rules (patterns were validated when the config was loaded). */
export function compileRules(
  rules: ReadonlyArray<Omit<CategoryRule, "pattern"> & { match: string }>,
): CategoryRule[] {
  return rules.map((rule) => ({
    pattern: new RegExp(rule.match, "iu"),
    category: rule.category,
    ...(rule.min === undefined ? {} : { min: rule.min }),
    ...(rule.max === undefined ? {} : { max: rule.max }),
    ...(rule.account === undefined ? {} : { account: rule.account }),
  }));
}

/**
 * Whether an amount is at least `bound` whole units (`atLeast`), or at most (no bound: yes).
 * Compared as integers: the bound becomes minor units through its digits, never multiplied as a
 * float. A bound that is no amount matches nothing.
 */
function withinBound(
  { amountMinor, currency }: Pick<MoneyTransaction, "amountMinor" | "currency">,
  bound: number | string | undefined,
  atLeast: boolean,
) {
  if (bound === undefined) return true;
  let scaled: number;
  try {
    scaled = configAmountMinor(bound, currency);
  } catch {
    return false;
  }
  return atLeast ? amountMinor >= scaled : amountMinor <= scaled;
}

/** The category the rules give a transaction, and which kind of rule gave it; undefined: none. */
export function ruleCategory(
  transaction: Pick<
    MoneyTransaction,
    "merchant" | "payee" | "description" | "amountMinor" | "currency" | "account"
  >,
  rules: readonly CategoryRule[],
  learned: ReadonlyMap<string, string>,
): { category: string; source: CategorySource } | undefined {
  const remembered = learned.get(transaction.merchant);
  if (remembered) return { category: remembered, source: "learned" };
  const text = `${transaction.payee} ${transaction.description}`;
  for (const rule of rules) {
    if (rule.account !== undefined && rule.account !== transaction.account) continue;
    if (!withinBound(transaction, rule.min, true)) continue;
    if (!withinBound(transaction, rule.max, false)) continue;
    if (rule.pattern.test(text)) return { category: rule.category, source: "rule" };
  }
  return undefined;
}
