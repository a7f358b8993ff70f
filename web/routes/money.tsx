/**
 * `/money`: a month's spending by category with server-drawn SVG charts, the change against the
 * months before, top payees, and the month's transactions (100 at most; `?uncategorized=1` for
 * those without a category) with a form each to correct the category, remembered as a rule.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { field, flash, isHtmx, parseId, redirectAfterPost, renderPage } from "../render.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import { MoneyReportView, TransactionTable } from "../views/money.tsx";
import { isMonth, monthsBefore } from "../../src/money/mod.ts";
import { RadarError } from "../../src/core/errors.ts";

/** Transactions listed under the report. */
const moneyTransactionLimit = 100;

function nextMonth(month: string): string {
  const [year, number] = month.split("-").map(Number);
  const date = new Date(Date.UTC(year, number, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

const moneyMissing = (
  <Unavailable what="Money not available." hint="The money ledger is not attached." />
);

/** Money routes. */
export function moneyRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  async function page(c: Context, error?: string) {
    const money = await deps.money?.();
    if (!money) return renderPage(c, context, { title: "Money", active: "/money" }, moneyMissing);
    const asked = c.req.query("month") ?? "";
    const month = isMonth(asked) ? asked : await money.currentMonth();
    const uncategorized = c.req.query("uncategorized") === "1";
    const [report, transactions, categories] = await Promise.all([
      money.report(month),
      money.transactions({ month, uncategorized, limit: moneyTransactionLimit }),
      money.categories(),
    ]);
    const previous = monthsBefore(month, 1)[0];
    return renderPage(
      c,
      context,
      { title: `Money ${month}`, active: "/money", status: error ? 422 : 200 },
      <>
        {error ? <Notice kind="error">{error}</Notice> : null}
        <nav class="row pagination">
          <a href={`/money?month=${previous}`} rel="prev">← {previous}</a>
          <form method="get" action="/money" class="row">
            <input type="month" name="month" value={month} aria-label="Month" />
            <button type="submit">Show</button>
          </form>
          <a href={`/money?month=${nextMonth(month)}`} rel="next">{nextMonth(month)} →</a>
        </nav>
        <MoneyReportView report={report} />
        <section>
          <h2>
            Transactions{uncategorized ? " without a category" : ""}{" "}
            <a
              class="muted"
              href={`/money?month=${month}${uncategorized ? "" : "&uncategorized=1"}`}
            >
              {uncategorized ? "show all" : "only uncategorized"}
            </a>
          </h2>
          <p class="muted">
            A category you choose here is remembered for the merchant and used for its later
            transactions.
          </p>
          <TransactionTable
            transactions={transactions}
            categories={categories.map((category) => category.name)}
            month={month}
          />
        </section>
      </>,
    );
  }

  app.get("/money", (c) => page(c));

  app.post("/money/transactions/:id/category", async (c) => {
    const money = await deps.money?.();
    const id = parseId(c.req.param("id"));
    const form = await c.req.parseBody();
    const category = field(form, "category");
    const month = field(form, "month");
    const back = `/money${isMonth(month) ? `?month=${month}` : ""}#transaction-${id ?? ""}`;
    if (!money || id === undefined) return c.text("Not found.", 404);
    if (!category) return redirectAfterPost(c, back);
    try {
      await money.categorize(id, category);
    } catch (error) {
      if (!(error instanceof RadarError)) throw error;
      if (isHtmx(c)) return flash(c, error.message);
      return page(c, error.message);
    }
    return redirectAfterPost(c, back);
  });
  return app;
}
