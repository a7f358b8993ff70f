/**
 * `money`: a month's spending by category (with the change against the months before and the
 * top payees), or its transactions. Read-only, compact, offered only once statements exist;
 * payees come back inside the loop's untrusted-data markers like every tool result.
 */
import { z } from "zod";
import { formatMinor, type MoneyBook, type MoneyReport } from "../money/mod.ts";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { RadarError } from "../core/errors.ts";

/** Transactions listed by one call, at most. */
const maxListed = 40;

function reportLines(report: MoneyReport): string {
  if (!report.currencies.length) return `No transactions in ${report.month}.`;
  const lines = [`${report.month} (before: ${report.compared.join(", ")})`];
  for (const part of report.currencies) {
    const money = (minor: number) => formatMinor(minor, part.currency);
    lines.push(
      `${part.currency}: spent ${money(part.spentMinor)}, received ${money(part.receivedMinor)}`,
    );
    for (const line of part.categories) {
      const average = line.averageMinor === undefined
        ? ""
        : `, avg before ${money(line.averageMinor)}`;
      const received = line.receivedMinor ? `, received ${money(line.receivedMinor)}` : "";
      lines.push(
        `- ${line.category}: ${money(line.spentMinor)} (${line.count}×${average}${received})`,
      );
    }
    const top = part.topPayees.slice(0, 5).map((payee) =>
      `${payee.payee} ${money(payee.spentMinor)}`
    );
    if (top.length) lines.push(`top payees: ${top.join("; ")}`);
  }
  return lines.join("\n");
}

/** money's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const moneyInput = lazyValue(() =>
  z.object({
    // The month's shape is checked by the report (a pattern in the schema costs tokens).
    month: z.string().max(7).optional().describe("YYYY-MM"),
    transactions: z.boolean().optional(),
    category: z.string().max(40).optional(),
  })
);

/** The `money` tool over the ledger. */
export function moneyTool(deps: { money: Pick<MoneyBook, "report" | "transactions"> }): Tool {
  return defineTool({
    name: "money",
    description: "Bank statements: spending by category, or the transactions",
    readOnly: true,
    keywords: [
      "money",
      "spend",
      "spent",
      "spending",
      "bank",
      "transactions",
      "expenses",
      "budget",
      "paid",
      "payee",
      "merchant",
      "income",
      "salary",
      "subscription",
      "groceries",
      "statement",
      "card",
    ],
    parameters: toolParameters.money,
    input: moneyInput,
    run: ({ month, transactions: list, category }) => {
      try {
        if (!list) return Promise.resolve(reportLines(deps.money.report(month)));
        const rows = deps.money.transactions({
          limit: maxListed + 1,
          ...(month ? { month } : {}),
          ...(category === "uncategorized"
            ? { uncategorized: true }
            : category
            ? { category }
            : {}),
        });
        if (!rows.length) return Promise.resolve("No transactions.");
        const lines = rows.slice(0, maxListed).map((row) =>
          `${row.bookedOn} ${formatMinor(row.amountMinor, row.currency)} ${row.currency} ` +
          `${row.payee.slice(0, 60)} [${row.category ?? "uncategorized"}]`
        );
        if (rows.length > maxListed) lines.push(`(more: narrow by month or category)`);
        return Promise.resolve(lines.join("\n"));
      } catch (error) {
        if (error instanceof RadarError) return Promise.resolve(failed(error.message));
        throw error;
      }
    },
  });
}
