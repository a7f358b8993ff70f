/**
 * The watched statements folder on the daemon's tick: settled files are imported once (a
 * sub-folder names the account), a file still being written waits, a file that cannot be
 * imported is one event (not one per tick), links are not followed, and a missing folder shows
 * in `radar status`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { noPluginsYaml, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";
import { type FixtureRow, germanCsv, ofxSgml } from "../helpers/statement_fixtures.ts";

const yaml = `${noPluginsYaml}radar:
  timezone: "UTC"
money:
  folder: "~/statements"
  check_every_minutes: 5
  categorize_with_model: false
  accounts:
    - name: giro
      currency: EUR
      csv: { delimiter: ";", date: Buchungstag, amount: "Betrag (EUR)", payee: "Auftraggeber / Begünstigter" }
    - name: checking
      number: "000123456789"
`;

const rows: FixtureRow[] = [
  { date: "2026-03-02", amount: "-42.10", payee: "REWE Markt GmbH" },
  { date: "2026-03-03", amount: "2500.00", payee: "ACME Payroll" },
];

const anHourAgo = () => new Date(Date.now() - 3_600_000);

async function moneyJob(radar: Radar) {
  const job = (await radar.tickJobs()).find((candidate) => candidate.name === "money");
  assert.ok(job);
  return (clock: ManualClock) => job.run(clock.now(), new AbortController().signal);
}

Deno.test("the watched folder: settled statements imported once, failures one event, links skipped", async () => {
  const clock = new ManualClock(new Date("2026-04-02T09:00:00Z"));
  await withFakeLlmRadar({ prefix: "radar-money-folder-", yaml, clock }, async (radar, home) => {
    const folder = join(home.folder, "statements");
    Deno.mkdirSync(join(folder, "giro"), { recursive: true });
    const settled = (path: string, text: string) => {
      Deno.writeTextFileSync(path, text);
      Deno.utimeSync(path, anHourAgo(), anHourAgo());
    };
    settled(join(folder, "giro", "march.csv"), germanCsv(rows));
    settled(join(folder, "checking.ofx"), ofxSgml(rows));
    settled(join(folder, "unknown.csv"), germanCsv(rows.slice(1)));
    Deno.writeTextFileSync(
      join(folder, "giro", "april.csv"),
      germanCsv([{ ...rows[0], date: "2026-04-01" }]),
    );
    Deno.writeTextFileSync(join(home.folder, "outside.ofx"), ofxSgml(rows, { account: "999" }));
    Deno.symlinkSync(join(home.folder, "outside.ofx"), join(folder, "link.ofx"));
    settled(join(folder, "notes.pdf"), "not a statement");

    const tick = await moneyJob(radar);
    await tick(clock);
    const accounts = (await radar.money()).accounts().map((
      account,
    ) => [account.name, account.transactions]);
    assert.deepEqual(accounts, [["checking", 2], ["giro", 2]], "the link and the fresh file wait");
    const failed = radar.queue.pending(10).filter((event) => event.kind === "money_import_failed");
    assert.deepEqual(failed.map((event) => event.summary), [
      "Cannot import unknown.csv: which account is it? pass --account NAME (or set money.accounts[].files)",
    ]);
    assert.equal(
      (await radar.money()).imports(10).find((entry) => entry.fileName === "unknown.csv")?.error !==
        undefined,
      true,
    );

    // Before the next check is due nothing is read; then the settled April file comes in.
    Deno.utimeSync(join(folder, "giro", "april.csv"), anHourAgo(), anHourAgo());
    await tick(clock);
    assert.equal((await radar.money()).transactions({ limit: 10, account: "giro" }).length, 2);
    clock.advance(5 * 60_000);
    await tick(clock);
    assert.equal((await radar.money()).transactions({ limit: 10, account: "giro" }).length, 3);
    // The failed file raised one event, not one per scan.
    clock.advance(5 * 60_000);
    await tick(clock);
    assert.equal(
      radar.queue.pending(10).filter((event) => event.kind === "money_import_failed").length,
      1,
    );
    assert.deepEqual(
      sourceHealthLines(await radar.sourceHealth.records({})).filter((line) =>
        line.includes("statements folder")
      ),
      [`  statements folder: ok (last check 2026-04-02 09:10 UTC)`],
    );
  });
});

Deno.test("a missing folder backs off and shows in radar status", async () => {
  const clock = new ManualClock(new Date("2026-04-02T09:00:00Z"));
  await withFakeLlmRadar({ prefix: "radar-money-nofolder-", yaml, clock }, async (radar) => {
    const tick = await moneyJob(radar);
    await tick(clock);
    const lines = sourceHealthLines(await radar.sourceHealth.records({}));
    const line = lines.find((text) => text.includes("statements folder")) ?? "";
    assert.match(
      line,
      /^ {2}statements folder: FAILING \(1× in a row, .*\): the folder .*statements does not exist$/,
    );
    assert.ok(lines.includes("money:"));
  });
});
