/**
 * Statements into a real Radar (real SQLite file, the fake LLM server over HTTP): duplicates
 * across overlapping files, a CSV mapping asked once and then remembered, rules before the model,
 * corrections learned, malformed and oversized files refused whole with one line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { RadarError } from "../../src/core/errors.ts";
import type { CsvPreview } from "../../src/money/money_book.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { noPluginsYaml, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";
import {
  camt053,
  englishCsv,
  type FixtureRow,
  germanCsv,
  ofxSgml,
} from "../helpers/statement_fixtures.ts";

const baseYaml = `${noPluginsYaml}radar:
  timezone: "UTC"
`;

function moneyYaml(money: string): string {
  return `${baseYaml}money:\n${money}`;
}

async function withMoney(
  yaml: string,
  work: (radar: Radar, write: (name: string, text: string) => string) => Promise<void>,
) {
  await withFakeLlmRadar(
    { prefix: "radar-money-", yaml, clock: new ManualClock(new Date("2026-04-02T09:00:00Z")) },
    async (radar, home) => {
      const write = (name: string, text: string) => {
        const path = join(home.folder, name);
        Deno.writeTextFileSync(path, text);
        return path;
      };
      await work(radar, write);
    },
  );
}

async function failure(work: Promise<unknown>): Promise<RadarError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof RadarError, String(error));
    return error;
  }
  assert.fail("expected the import to fail");
}

const march: FixtureRow[] = [
  { date: "2026-03-02", amount: "-42.10", payee: "REWE Markt GmbH", id: "R1" },
  { date: "2026-03-03", amount: "2500.00", payee: "ACME Payroll", id: "R2" },
  // Two equal coffees on one day and no bank id: both are real.
  { date: "2026-03-10", amount: "-3.50", payee: "Coffee Corner" },
  { date: "2026-03-10", amount: "-3.50", payee: "Coffee Corner" },
  { date: "2026-03-15", amount: "-1234.56", payee: "Landlord & Sons", id: "R5" },
];
const lateMarch: FixtureRow[] = [
  ...march.slice(2), // overlap: the coffees (content key) and the rent (bank id)
  { date: "2026-03-20", amount: "-60.00", payee: "Stadtwerke", id: "R6" },
  { date: "2026-03-28", amount: "-3.50", payee: "Coffee Corner" },
];

Deno.test("overlapping CAMT.053 statements: each booking stored once, by bank id or content key", async () => {
  await withMoney(baseYaml, async (radar, write) => {
    const first = await (await radar.money()).import({
      path: write("camt-1.xml", camt053(march)),
      useModel: false,
    });
    assert.deepEqual(first.accounts, [{
      account: "DE02…2051",
      added: 5,
      duplicates: 0,
    }]);
    const second = await (await radar.money()).import({
      path: write("camt-2.xml", camt053(lateMarch, { statementId: "STMT-2" })),
      useModel: false,
    });
    assert.deepEqual(second.accounts, [{
      account: "DE02…2051",
      added: 2,
      duplicates: 3,
    }]);
    const stored = (await radar.money()).transactions({ limit: 100 });
    assert.equal(stored.length, 7);
    assert.equal(stored.filter((row) => row.payee === "Coffee Corner").length, 3);
    assert.ok(stored.every((row) => Number.isInteger(row.amountMinor)));
    // The same bytes again: nothing to do, and it says so.
    const again = await (await radar.money()).import({
      path: write("copy.xml", camt053(march)),
      useModel: false,
    });
    assert.equal(again.alreadyImported?.fileName, "camt-1.xml");
    assert.equal((await radar.money()).transactions({ limit: 100 }).length, 7);
  });
});

Deno.test("a CSV without ids and an OFX with FITIDs of the same account: the OFX rows match", async () => {
  const yaml = moneyYaml(`  accounts:
    - name: checking
      currency: USD
      number: "000123456789"
`);
  await withMoney(yaml, async (radar, write) => {
    const asked: CsvPreview[] = [];
    await (await radar.money()).import({
      path: write("checking.csv", englishCsv(march)),
      account: "checking",
      useModel: false,
      confirm: (preview) => {
        asked.push(preview);
        return Promise.resolve(true);
      },
    });
    assert.equal(asked.length, 1);
    // The OFX names the account by number; its rows carry FITIDs the CSV rows did not have.
    const ofx = await (await radar.money()).import({
      path: write("checking.ofx", ofxSgml(lateMarch)),
      useModel: false,
    });
    assert.deepEqual(ofx.accounts, [{ account: "checking", added: 2, duplicates: 3 }]);
    const rent = (await radar.money()).transactions({ limit: 100 }).find((row) =>
      row.payee === "Landlord & Sons"
    );
    assert.equal(rent?.bankId, "R5", "the CSV row got the bank's id");
    assert.equal((await radar.money()).transactions({ limit: 100 }).length, 7);
  });
});

Deno.test("a detected CSV mapping is shown, confirmed once, remembered; a no stores nothing", async () => {
  await withMoney(baseYaml, async (radar, write) => {
    const path = write("giro.csv", germanCsv(march));
    const refused = await failure(
      (await radar.money()).import({
        path,
        account: "giro",
        useModel: false,
        confirm: () => Promise.resolve(false),
      }),
    );
    assert.equal(
      refused.message,
      "Cannot import giro.csv: not imported: the columns were not confirmed",
    );
    assert.equal(refused.exitCode, 2);
    assert.equal((await radar.money()).transactions({ limit: 10 }).length, 0);
    // Without a way to ask (the watched folder), a CSV without a confirmed mapping waits.
    const unasked = await failure(
      (await radar.money()).import({ path, account: "giro", useModel: false }),
    );
    assert.match(
      unasked.message,
      /its columns are not confirmed yet: run `radar money import .*giro.csv --account giro`/,
    );
    const previews: CsvPreview[] = [];
    await (await radar.money()).import({
      path,
      account: "giro",
      useModel: false,
      confirm: (preview) => {
        previews.push(preview);
        return Promise.resolve(true);
      },
    });
    assert.deepEqual(previews[0].mapping, [
      'delimiter ";", decimal ","',
      "date: Buchungstag (DD.MM.YYYY)",
      "amount: Betrag (EUR)",
      "payee: Auftraggeber / Begünstigter",
      "description: Verwendungszweck",
    ]);
    assert.equal(previews[0].count, 5);
    assert.equal(previews[0].sample[0], "2026-03-15  -1,234.56 EUR  Landlord & Sons");
    // The next statement of the account needs no question.
    const next = await (await radar.money()).import({
      path: write(
        "giro-april.csv",
        germanCsv([{ date: "2026-04-01", amount: "-19.99", payee: "Netflix" }]),
      ),
      account: "giro",
      useModel: false,
    });
    assert.deepEqual(next.accounts, [{ account: "giro", added: 1, duplicates: 0 }]);
    assert.equal(
      (await radar.money()).transactions({ limit: 10, account: "giro" })[0].currency,
      "EUR",
    );
  });
});

Deno.test("a malformed file is refused whole: one line with the file and the row, nothing stored", async () => {
  const yaml = moneyYaml(`  max_file_mib: 0.01
  accounts:
    - name: giro
      currency: EUR
      csv: { date: Buchungstag, date_format: DD.MM.YYYY, amount: "Betrag (EUR)", payee: "Auftraggeber / Begünstigter", decimal: "," }
`);
  await withMoney(yaml, async (radar, write) => {
    const broken = germanCsv(march).replace("-3,50", "-3,5O");
    const error = await failure(
      (await radar.money()).import({ path: write("giro.csv", broken), account: "giro" }),
    );
    assert.equal(error.message, 'Cannot import giro.csv: row 8: "-3,5O" is not an amount');
    assert.equal(error.exitCode, 2);
    assert.equal(
      (await radar.money()).transactions({ limit: 10 }).length,
      0,
      "not even the rows before it",
    );
    const huge = write("huge.csv", "x".repeat(20_000));
    assert.equal(
      (await failure((await radar.money()).import({ path: huge, account: "giro" }))).message,
      "Cannot import huge.csv: 20 KiB is larger than money.max_file_mib (11 KiB)",
    );
    const missing = await failure((await radar.money()).import({ path: "/nonexistent/x.ofx" }));
    assert.equal(missing.message, "Cannot import x.ofx: no such file");
    const wrongCurrency = await failure(
      (await radar.money()).import({ path: write("usd.ofx", ofxSgml(march)), account: "giro" }),
    );
    assert.equal(
      wrongCurrency.message,
      "Cannot import usd.ofx: it is in USD, but account giro is in EUR",
    );
  });
});

Deno.test("rules categorise before the model; a correction is remembered for the merchant", async () => {
  const yaml = moneyYaml(`  rules:
    - match: "rewe|edeka"
      category: groceries
    - match: "landlord"
      category: housing
      max: -500
`);
  await withMoney(yaml, async (radar, write) => {
    const summary = await (await radar.money()).import({
      path: write("a.xml", camt053(march)),
      useModel: false,
    });
    assert.equal(summary.byRules, 2);
    const rows = (await radar.money()).transactions({ limit: 100 });
    const byPayee = (payee: string) => rows.filter((row) => row.payee === payee);
    assert.equal(byPayee("REWE Markt GmbH")[0].category, "groceries");
    assert.equal(byPayee("Landlord & Sons")[0].categorySource, "rule");
    const coffee = byPayee("Coffee Corner");
    const corrected = (await radar.money()).categorize(coffee[0].id, "Dining");
    assert.equal(corrected.transaction.category, "dining");
    assert.equal(corrected.transaction.categorySource, "user");
    assert.equal(corrected.alsoChanged, 1, "the other coffee of that day too");
    assert.equal((await radar.money()).get(coffee[1].id)?.categorySource, "learned");
    // A later statement: the learned merchant is categorised without the model.
    await (await radar.money()).import({
      path: write("b.xml", camt053(lateMarch, { statementId: "2" })),
      useModel: false,
    });
    const later = (await radar.money()).transactions({ limit: 100 }).find((row) =>
      row.bookedOn === "2026-03-28"
    );
    assert.deepEqual([later?.category, later?.categorySource], ["dining", "learned"]);
    assert.deepEqual(
      (await radar.money()).categories().filter((category) => category.transactions).map((
        category,
      ) => [
        category.name,
        category.transactions,
        category.rules,
        category.learned,
      ]),
      [
        ["groceries", 1, ["rewe|edeka"], []],
        ["dining", 3, [], ["coffee corner"]],
        ["housing", 1, ["landlord"], []],
      ],
    );
    const money = await radar.money();
    assert.throws(
      () => money.categorize(coffee[0].id, "yachts"),
      /Unknown category "yachts"/,
    );
    assert.throws(() => money.categorize(9999, "dining"), /No transaction 9999/);
  });
});
