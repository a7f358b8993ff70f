/**
 * The monthly report's numbers, checked exactly: totals by category per currency, the month
 * before, the average of the compared months, the change, top payees, each month's totals; and
 * the same report as `radar money report` prints it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { reportText } from "../../src/cli/commands/money_text.ts";
import type { MoneyReport } from "../../src/money/money_report.ts";
import { noPluginsYaml, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";
import { camt053, type FixtureRow, ofxXml } from "../helpers/statement_fixtures.ts";

const yaml = `${noPluginsYaml}radar:
  timezone: "UTC"
money:
  categorize_with_model: false
  rules:
    - { match: "rewe", category: groceries }
    - { match: "landlord", category: housing }
    - { match: "cafe", category: dining }
    - { match: "payroll", category: income }
`;

const month = (at: string, rows: Array<[string, string, string]>): FixtureRow[] =>
  rows.map(([day, amount, payee], index) => ({
    date: `${at}-${day}`,
    amount,
    payee,
    id: `${at}-${index}`,
  }));

const statements: FixtureRow[][] = [
  month("2026-01", [
    ["03", "-100.00", "REWE Markt"],
    ["17", "-50.25", "REWE Markt"],
    ["01", "-1000.00", "Landlord & Sons"],
    ["28", "3000.00", "ACME Payroll"],
  ]),
  month("2026-02", [
    ["10", "-80.10", "REWE Markt"],
    ["01", "-1000.00", "Landlord & Sons"],
    ["27", "3000.00", "ACME Payroll"],
    ["14", "-12.40", "Cafe Blau"],
  ]),
  month("2026-03", [
    ["09", "-120.00", "REWE Markt"],
    ["01", "-1000.00", "Landlord & Sons"],
    ["27", "3000.00", "ACME Payroll"],
  ]),
  month("2026-04", [
    ["02", "-90.00", "REWE Markt"],
    ["16", "-30.55", "REWE Markt"],
    ["01", "-1050.00", "Landlord & Sons"],
    ["28", "3100.00", "ACME Payroll"],
    ["05", "-7.80", "Cafe Blau"],
    ["12", "-4.20", "Cafe Blau"],
    ["20", "-19.99", "Mystery Shop"],
  ]),
];

const expected: MoneyReport = {
  month: "2026-04",
  compared: ["2026-01", "2026-02", "2026-03"],
  currencies: [
    {
      currency: "EUR",
      spentMinor: 120254,
      receivedMinor: 310000,
      netMinor: 189746,
      categories: [
        {
          category: "housing",
          spentMinor: 105000,
          receivedMinor: 0,
          count: 1,
          previousMinor: 100000,
          averageMinor: 100000,
          changeMinor: 5000,
          changePercent: 5,
        },
        {
          category: "groceries",
          spentMinor: 12055,
          receivedMinor: 0,
          count: 2,
          previousMinor: 12000,
          averageMinor: 11678, // (15025 + 8010 + 12000) / 3 = 11678.33
          changeMinor: 377,
          changePercent: 3,
        },
        {
          category: "uncategorized",
          spentMinor: 1999,
          receivedMinor: 0,
          count: 1,
          previousMinor: 0,
          averageMinor: 0,
          changeMinor: 1999,
        },
        {
          category: "dining",
          spentMinor: 1200,
          receivedMinor: 0,
          count: 2,
          previousMinor: 0,
          averageMinor: 413, // (0 + 1240 + 0) / 3
          changeMinor: 787,
          changePercent: 191,
        },
        {
          category: "income",
          spentMinor: 0,
          receivedMinor: 310000,
          count: 1,
          previousMinor: 0,
          averageMinor: 0,
          changeMinor: 0,
        },
      ],
      topPayees: [
        { payee: "Landlord & Sons", merchant: "landlord sons", spentMinor: 105000, count: 1 },
        { payee: "REWE Markt", merchant: "rewe markt", spentMinor: 12055, count: 2 },
        { payee: "Mystery Shop", merchant: "mystery shop", spentMinor: 1999, count: 1 },
        { payee: "Cafe Blau", merchant: "cafe blau", spentMinor: 1200, count: 2 },
      ],
      months: [
        { month: "2026-01", spentMinor: 115025, receivedMinor: 300000 },
        { month: "2026-02", spentMinor: 109250, receivedMinor: 300000 },
        { month: "2026-03", spentMinor: 112000, receivedMinor: 300000 },
        { month: "2026-04", spentMinor: 120254, receivedMinor: 310000 },
      ],
    },
    {
      currency: "USD",
      spentMinor: 2500,
      receivedMinor: 0,
      netMinor: -2500,
      categories: [
        {
          category: "uncategorized",
          spentMinor: 2500,
          receivedMinor: 0,
          count: 1,
          previousMinor: 0,
        },
      ],
      topPayees: [{ payee: "Hotel NY", merchant: "hotel ny", spentMinor: 2500, count: 1 }],
      months: [
        { month: "2026-01", spentMinor: 0, receivedMinor: 0 },
        { month: "2026-02", spentMinor: 0, receivedMinor: 0 },
        { month: "2026-03", spentMinor: 0, receivedMinor: 0 },
        { month: "2026-04", spentMinor: 2500, receivedMinor: 0 },
      ],
    },
  ],
};

Deno.test("the April report: totals, previous month, average, change, top payees — exact", async () => {
  const clock = new ManualClock(new Date("2026-04-30T12:00:00Z"));
  await withFakeLlmRadar({ prefix: "radar-money-report-", yaml, clock }, async (radar, home) => {
    for (const [index, rows] of statements.entries()) {
      const path = join(home.folder, `camt-${index}.xml`);
      Deno.writeTextFileSync(path, camt053(rows, { statementId: `S${index}` }));
      await (await radar.money()).import({ path });
    }
    const usd = join(home.folder, "card.ofx");
    Deno.writeTextFileSync(
      usd,
      ofxXml([{ date: "2026-04-11", amount: "-25.00", payee: "Hotel NY" }], { currency: "USD" }),
    );
    await (await radar.money()).import({ path: usd });
    assert.equal((await radar.money()).currentMonth(), "2026-04");
    const report = (await radar.money()).report();
    assert.deepEqual(report, expected);
    // An empty month is a report with nothing in it, not an error; a bad month is one line.
    assert.deepEqual((await radar.money()).report("2025-06").currencies, []);
    const money = await radar.money();
    assert.throws(
      () => money.report("2026-13"),
      /--month "2026-13" is not a month: expected YYYY-MM/,
    );

    const lines = reportText(report).split("\n");
    assert.equal(lines[0], "Money for 2026-04 (compared with 2026-01 – 2026-03)");
    assert.ok(lines.includes("EUR: spent 1,202.54, received 3,100.00, net 1,897.46"));
    const row = (start: string) => lines.find((line) => line.startsWith(start))?.split(/ +/);
    assert.deepEqual(row("  housing"), ["", "housing", "1,050.00", "1,000.00", "1,000.00", "+5%"]);
    assert.deepEqual(row("  groceries"), ["", "groceries", "120.55", "120.00", "116.78", "+3%"]);
    assert.deepEqual(row("  income")?.slice(1), [
      "income",
      "0.00",
      "0.00",
      "0.00",
      "0.00",
      "(received",
      "3,100.00)",
    ]);
    assert.deepEqual(row("   1."), ["", "1.", "Landlord", "&", "Sons", "1,050.00", "(1×)"]);
    assert.ok(lines.includes("USD: spent 25.00, received 0.00, net -25.00"));
  });
});
