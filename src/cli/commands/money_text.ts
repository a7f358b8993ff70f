/** `radar money`'s text: the report table, transaction lines, import summaries, the CSV preview. */
import {
  type CsvPreview,
  formatMinor,
  formatMoney,
  type ImportSummary,
  type MoneyReport,
  type MoneyTransaction,
} from "../../money/mod.ts";

/** Minor units grouped, without the currency: "1,234.56". */
function amount(minor: number, currency: string): string {
  return formatMoney(minor, currency).replace(/ [A-Z]{3}$/, "");
}

function pad(text: string, width: number, right = false): string {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
}

/** One transaction as a line: "#12 2026-03-02  -42.10 EUR  REWE Markt  [groceries, rule]". */
export function transactionLine(transaction: MoneyTransaction): string {
  const category = transaction.category
    ? `[${transaction.category}${
      transaction.categorySource ? `, ${transaction.categorySource}` : ""
    }]`
    : "[uncategorized]";
  return `#${transaction.id} ${transaction.bookedOn} ${
    pad(
      `${formatMinor(transaction.amountMinor, transaction.currency)} ${transaction.currency}`,
      16,
      true,
    )
  }  ${pad(transaction.payee, 40)} ${category} ${transaction.account}`;
}

/** The report as text. */
export function reportText(report: MoneyReport): string {
  const compared = report.compared.length
    ? ` (compared with ${report.compared[0]} – ${report.compared.at(-1)})`
    : "";
  const lines = [`Money for ${report.month}${compared}`];
  if (!report.currencies.length) {
    lines.push("", `No transactions in ${report.month} (radar money import FILE).`);
  }
  for (const part of report.currencies) {
    const money = (minor: number) => amount(minor, part.currency);
    lines.push(
      "",
      `${part.currency}: spent ${money(part.spentMinor)}, received ${money(part.receivedMinor)}, ` +
        `net ${money(part.netMinor)}`,
      `  ${pad("category", 16)} ${pad("spent", 12, true)} ${pad("last month", 12, true)} ` +
        `${pad("avg before", 12, true)} ${pad("change", 8, true)}`,
    );
    for (const line of part.categories) {
      const change = line.changePercent === undefined
        ? line.changeMinor === undefined ? "" : money(line.changeMinor)
        : `${line.changePercent > 0 ? "+" : ""}${line.changePercent}%`;
      const received = line.receivedMinor ? `  (received ${money(line.receivedMinor)})` : "";
      lines.push(
        `  ${pad(line.category, 16)} ${pad(money(line.spentMinor), 12, true)} ` +
          `${pad(money(line.previousMinor), 12, true)} ` +
          `${pad(line.averageMinor === undefined ? "" : money(line.averageMinor), 12, true)} ` +
          `${pad(change, 8, true)}${received}`,
      );
    }
    if (part.topPayees.length) {
      lines.push("  top payees:");
      part.topPayees.forEach((payee, index) =>
        lines.push(
          `  ${String(index + 1).padStart(2)}. ${pad(payee.payee, 36)} ${
            pad(money(payee.spentMinor), 12, true)
          }` +
            `  (${payee.count}×)`,
        )
      );
    }
  }
  return `${lines.map((line) => line.trimEnd()).join("\n")}\n`;
}

/** What an import did, in a few lines. */
export function importText(summary: ImportSummary): string {
  if (summary.alreadyImported) {
    const earlier = summary.alreadyImported;
    return `${summary.fileName} was imported before (${earlier.importedAt.slice(0, 10)}, ` +
      `${earlier.added} transactions into ${earlier.account}); nothing to do.\n`;
  }
  const lines = summary.accounts.map((part) =>
    `Imported ${summary.fileName} (${summary.format}) into ${part.account}: ${part.added} new, ` +
    `${part.duplicates} already there.`
  );
  const categorized = [`${summary.byRules} by rules`];
  if (summary.byModel !== undefined) categorized.push(`${summary.byModel} by the model`);
  lines.push(`Categorised ${categorized.join(", ")}.`);
  if (summary.modelProblem) {
    lines.push(
      `The model could not categorise the rest (${summary.modelProblem}); radar serve tries again.`,
    );
  }
  if (summary.alerts) lines.push(`Queued ${summary.alerts} event(s) for the next heartbeat.`);
  return `${lines.join("\n")}\n`;
}

/** The detected CSV mapping, shown before the person says yes. */
export function previewText(preview: CsvPreview): string {
  return [
    `${preview.fileName} for account "${preview.account}": detected columns`,
    ...preview.mapping.map((line) => `  ${line}`),
    `first transactions (of ${preview.count}):`,
    ...preview.sample.map((line) => `  ${line}`),
    "",
  ].join("\n");
}
