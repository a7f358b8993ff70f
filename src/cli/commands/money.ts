/**
 * `radar money import|report|categories|categorize|transactions|accounts`: bank and card
 * statements in, categories and a monthly report out.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson, printListing } from "../json_output.ts";
import { parseId, parseLimit } from "../arguments.ts";
import { UsageError } from "../../core/errors.ts";
import { terminalConfirm } from "../terminal_io.ts";
import {
  type CsvOverrides,
  type CsvPreview,
  formatMoney,
  type MappedField,
  mappedFields,
} from "../../money/mod.ts";
import { importText, previewText, reportText, transactionLine } from "./money_text.ts";

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--map date=Buchungstag --map amount=3` as overrides. */
function overridesFrom(options: ImportOptions): CsvOverrides {
  const overrides: CsvOverrides = {};
  for (const pair of options.map ?? []) {
    const match = /^([a-z]+)=(.+)$/.exec(pair.trim());
    const field = match?.[1] as MappedField | undefined;
    if (!match || !field || !mappedFields.includes(field)) {
      throw new UsageError(
        `--map "${pair.slice(0, 60)}": expected FIELD=COLUMN with FIELD one of ${
          mappedFields.join(", ")
        }`,
      );
    }
    overrides[field] = match[2].trim();
  }
  if (options.dateFormat) {
    if (!/^[DMY./ -]{4,12}$/.test(options.dateFormat)) {
      throw new UsageError(
        `--date-format "${options.dateFormat.slice(0, 20)}": expected e.g. DD.MM.YYYY`,
      );
    }
    overrides.dateFormat = options.dateFormat;
  }
  if (options.decimal) {
    if (options.decimal !== "," && options.decimal !== ".") {
      throw new UsageError('--decimal must be "," or "."');
    }
    overrides.decimal = options.decimal;
  }
  if (options.delimiter) {
    const delimiter = options.delimiter === "tab" ? "\t" : options.delimiter;
    if (![",", ";", "\t", "|"].includes(delimiter)) {
      throw new UsageError('--delimiter must be ",", ";", "|" or tab');
    }
    overrides.delimiter = delimiter;
  }
  return overrides;
}

interface ImportOptions {
  account?: string;
  currency?: string;
  map?: string[];
  dateFormat?: string;
  decimal?: string;
  delimiter?: string;
  yes?: boolean;
  model?: boolean;
  json?: boolean;
}

/** Registers `money` and its subcommands. */
export function registerMoney(program: Command, context: CliContext): void {
  const money = program.command("money").description(
    "bank and card statements: import, categories, monthly report",
  );

  money.command("import")
    .description("import a CSV, OFX/QFX or CAMT.053 statement (duplicates are skipped)")
    .argument("<file>")
    .option("--account <name>", "the account it belongs to")
    .option("--currency <code>", "the currency when the file and the account state none")
    .option("--map <field=column>", "a CSV column: date, amount, debit, credit, payee, …", collect)
    .option("--date-format <format>", "the CSV's dates, e.g. DD.MM.YYYY or MM/DD/YYYY")
    .option("--decimal <separator>", 'the CSV\'s decimal separator: "," or "."')
    .option("--delimiter <character>", 'the CSV\'s delimiter: ",", ";", "|" or tab')
    .option("--yes", "use the detected CSV columns without asking (and remember them)")
    .option("--no-model", "categorise by rules only (the model is asked later)")
    .option("--json", jsonOptionHelp)
    .action(async (file: string, options: ImportOptions) => {
      const csv = overridesFrom(options);
      if (options.currency && !/^[A-Z]{3}$/.test(options.currency)) {
        throw new UsageError(
          `--currency "${options.currency.slice(0, 10)}": expected a code like EUR`,
        );
      }
      const radar = await context.radar();
      const confirm = async (preview: CsvPreview) => {
        context.io.stderr(previewText(preview));
        if (options.yes) return true;
        if (!context.io.interactive) {
          throw new UsageError(
            `Cannot import ${preview.fileName}: its columns were detected, not confirmed. ` +
              "Check them above, then run again with --yes (or set money.accounts[].csv)",
          );
        }
        return await terminalConfirm(context.io)(
          `Import with these columns and remember them for "${preview.account}"?`,
        );
      };
      const summary = await (await radar.money()).import({
        path: resolve(context.io.cwd, file),
        ...(options.account ? { account: options.account } : {}),
        ...(options.currency ? { currency: options.currency } : {}),
        csv,
        confirm,
        ...(options.model === false ? { useModel: false } : {}),
      });
      if (options.json) return printJson(context, summary);
      context.io.stdout(importText(summary));
    });

  money.command("report")
    .description("totals by category, top payees, change against the previous months")
    .option("--month <YYYY-MM>", "the month (default: this one)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { month?: string; json?: boolean }) => {
      const report = (await (await context.radar()).money()).report(options.month);
      if (options.json) return printJson(context, report);
      context.io.stdout(reportText(report));
    });

  money.command("categories")
    .description("the categories, how many transactions each has, and their rules")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const categories = (await (await context.radar()).money()).categories();
      if (options.json) return printJson(context, categories);
      for (const category of categories) {
        const rules = [
          ...category.rules.map((pattern) => `/${pattern}/`),
          ...category.learned.map((merchant) => `"${merchant}"`),
        ];
        context.io.stdout(
          `${category.name.padEnd(16)} ${String(category.transactions).padStart(6)}` +
            `${rules.length ? `  rules: ${rules.join(", ")}` : ""}\n`,
        );
      }
    });

  money.command("categorize")
    .description("correct a category (remembered for the merchant), or --pending: ask the model")
    .argument("[id]")
    .argument("[category]")
    .option("--pending", "ask the model about every uncategorised transaction now")
    .action(
      async (
        id: string | undefined,
        category: string | undefined,
        options: { pending?: boolean },
      ) => {
        const radar = await context.radar();
        if (options.pending) {
          const result = await (await radar.money()).categorizePending();
          return context.io.stdout(
            `Asked the model about ${result.asked} transaction(s) in ${result.requests} request(s); ` +
              `${result.categorized} categorised.\n`,
          );
        }
        if (!id || !category) throw new UsageError("Usage: radar money categorize ID CATEGORY");
        const { transaction, alsoChanged } = (await radar.money()).categorize(
          parseId(id),
          category,
        );
        context.io.stdout(
          `${
            transactionLine(transaction)
          }\nRemembered: "${transaction.merchant}" is ${transaction.category}` +
            (alsoChanged ? `; ${alsoChanged} other transaction(s) changed too` : "") + ".\n",
        );
      },
    );

  money.command("transactions")
    .description("stored transactions, newest first")
    .option("--month <YYYY-MM>", "only this month")
    .option("--category <name>", "only this category")
    .option("--uncategorized", "only those without a category")
    .option("--account <name>", "only this account")
    .option("-n, --limit <count>", "how many", "50")
    .option("--json", jsonOptionHelp)
    .action(async (options: {
      month?: string;
      category?: string;
      uncategorized?: boolean;
      account?: string;
      limit: string;
      json?: boolean;
    }) => {
      const limit = parseLimit(options.limit);
      const rows = (await (await context.radar()).money()).transactions({
        limit,
        ...(options.month ? { month: options.month } : {}),
        ...(options.category ? { category: options.category } : {}),
        ...(options.uncategorized ? { uncategorized: true } : {}),
        ...(options.account ? { account: options.account } : {}),
      });
      await printListing(context, options.json, rows, "No transactions.", transactionLine);
    });

  money.command("accounts")
    .description("accounts with their transactions and newest balance")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const accounts = (await (await context.radar()).money()).accounts();
      const empty = "No statements imported yet (radar money import FILE).";
      await printListing(context, options.json, accounts, empty, (account) => {
        const balance = account.balance
          ? `, balance ${
            formatMoney(account.balance.amountMinor, account.balance.currency)
          } on ${account.balance.on}`
          : "";
        return `${account.name}: ${account.transactions} transactions ${account.firstOn} – ${account.lastOn}${balance}`;
      });
    });
}
