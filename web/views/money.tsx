/**
 * /money: the month's report per currency (charts, the category table against the months
 * before, top payees) and the month's transactions, each with a form to correct its category.
 */
import {
  type CurrencyReport,
  formatMinor,
  formatMoney,
  type MoneyReport,
  type MoneyTransaction,
} from "../../src/money/mod.ts";
import { CategoryChart, MonthChart } from "./money_chart.tsx";
import { Table } from "./table.tsx";

function change(line: CurrencyReport["categories"][number], currency: string): string {
  if (line.changePercent !== undefined) {
    return `${line.changePercent > 0 ? "+" : ""}${line.changePercent}%`;
  }
  return line.changeMinor === undefined ? "" : formatMoney(line.changeMinor, currency);
}

/** The category table of one currency. */
function CategoryTable(props: { part: CurrencyReport }) {
  const { part } = props;
  const money = (minor: number | undefined) =>
    minor === undefined ? "" : formatMoney(minor, part.currency);
  return (
    <Table
      class="list money-table"
      columns={["Category", "Spent", "Received", "Last month", "Average before", "Change"]}
    >
      {part.categories.map((line) => (
        <tr data-category={line.category}>
          <td>{line.category}</td>
          <td class="number">{money(line.spentMinor)}</td>
          <td class="number">{line.receivedMinor ? money(line.receivedMinor) : ""}</td>
          <td class="number">{money(line.previousMinor)}</td>
          <td class="number">{money(line.averageMinor)}</td>
          <td class="number">{change(line, part.currency)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** One currency's part of the report. */
function CurrencySection(props: { part: CurrencyReport; month: string }) {
  const { part } = props;
  return (
    <section class="card" data-currency={part.currency}>
      <h2>
        {part.currency}: spent {formatMoney(part.spentMinor, part.currency)}, received{" "}
        {formatMoney(part.receivedMinor, part.currency)}
      </h2>
      <p class="muted">
        net{" "}
        {formatMoney(part.netMinor, part.currency)}; the tick on a bar is the average of the months
        before
      </p>
      <CategoryChart part={part} month={props.month} />
      <CategoryTable part={part} />
      <h3>Per month</h3>
      <p class="muted">spent (blue) and received (green), the months before and this one</p>
      <MonthChart part={part} />
      {part.topPayees.length
        ? (
          <>
            <h3>Top payees</h3>
            <ol class="money-payees">
              {part.topPayees.map((payee) => (
                <li>
                  {payee.payee} — {formatMoney(payee.spentMinor, part.currency)} ({payee.count}×)
                </li>
              ))}
            </ol>
          </>
        )
        : null}
    </section>
  );
}

/** The report of a month, or what to do when it is empty. */
export function MoneyReportView(props: { report: MoneyReport }) {
  const { report } = props;
  if (!report.currencies.length) {
    return (
      <p class="muted">
        No transactions in{" "}
        {report.month}. Import a statement with `radar money import FILE`, or set money.folder and
        drop statements there.
      </p>
    );
  }
  return (
    <>{report.currencies.map((part) => <CurrencySection part={part} month={report.month} />)}</>
  );
}

/** The month's transactions, each with a category form (a correction is remembered). */
export function TransactionTable(
  props: { transactions: MoneyTransaction[]; categories: string[]; month: string },
) {
  if (!props.transactions.length) return <p class="muted">No transactions.</p>;
  return (
    <Table
      class="list money-transactions"
      columns={["Date", "Amount", "Payee", "Account", "Category"]}
    >
      {props.transactions.map((transaction) => (
        <tr id={`transaction-${transaction.id}`}>
          <td>{transaction.bookedOn}</td>
          <td class="number">
            {formatMinor(transaction.amountMinor, transaction.currency)} {transaction.currency}
          </td>
          <td>
            {transaction.payee}
            {transaction.description ? <div class="muted">{transaction.description}</div> : null}
          </td>
          <td>{transaction.account}</td>
          <td>
            <form
              method="post"
              action={`/money/transactions/${transaction.id}/category`}
              class="row"
            >
              <input type="hidden" name="month" value={props.month} />
              <select name="category" aria-label={`Category of transaction ${transaction.id}`}>
                {transaction.category ? null : <option value="" selected>uncategorized</option>}
                {props.categories.map((category) => (
                  <option value={category} selected={category === transaction.category}>
                    {category}
                  </option>
                ))}
              </select>
              <button type="submit">Save</button>
              {transaction.categorySource
                ? <span class="muted">{transaction.categorySource}</span>
                : null}
            </form>
          </td>
        </tr>
      ))}
    </Table>
  );
}
