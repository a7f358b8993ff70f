/**
 * Which account a statement belongs to: the one named on the command line, a configured account
 * whose number the file states (IBAN or account number, spaces ignored, a suffix of 4 or more
 * matches a masked number), whose `files` pattern the name matches, or whose name is the
 * watched sub-folder the file was dropped in; else the number the file states, shortened, becomes
 * the name.
 */
import picomatch from "picomatch";
import type { MoneyAccountConfig, MoneyConfig } from "../config/money_schema.ts";
import { StatementProblem } from "./money.ts";
import { cleanStatementText } from "./money_text.ts";

function compact(number: string): string {
  return number.replace(/[\s-]/g, "").toUpperCase();
}

/** The configured account of this name. */
export function configuredAccount(
  config: MoneyConfig,
  name: string,
): MoneyAccountConfig | undefined {
  return config.accounts.find((account) => account.name === name);
}

/** The configured account whose number the statement's account id is (or ends with, or starts). */
export function accountByNumber(config: MoneyConfig, accountId: string): string | undefined {
  const id = compact(accountId);
  if (!id) return undefined;
  const matches = (number: string) => {
    const own = compact(number);
    if (!own) return false;
    if (own === id) return true;
    const shorter = own.length < id.length ? own : id;
    const longer = own.length < id.length ? id : own;
    return shorter.replace(/^[X*]+/, "").length >= 4 &&
      longer.endsWith(shorter.replace(/^[X*]+/, ""));
  };
  return config.accounts.find((account) => matches(account.number))?.name;
}

/** The configured account whose `files` pattern matches the file name, or the folder's account. */
export function accountByFile(
  config: MoneyConfig,
  fileName: string,
  folderAccount?: string,
): string | undefined {
  const byPattern = config.accounts.find((account) =>
    account.files && picomatch.isMatch(fileName, account.files, { nocase: true })
  );
  return byPattern?.name ?? folderAccount;
}

/**
 * An account name made from the number a file states, safe to store and show: a long number (an
 * IBAN, a card number) keeps only its first and last four characters ("DE02…2051").
 */
export function accountNameFrom(accountId: string): string {
  const name = compact(cleanStatementText(accountId, 40)).replace(/[^\p{L}\p{N}_.]/gu, "");
  if (!name) throw new StatementProblem("the statement names no account: pass --account NAME");
  return name.length > 8 ? `${name.slice(0, 4)}…${name.slice(-4)}` : name;
}
