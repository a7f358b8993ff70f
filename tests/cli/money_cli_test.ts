/**
 * `radar money` as a real subprocess with the binary's flags: a detected CSV mapping needs a yes
 * (refused with one line when nobody can be asked), `--yes` imports and remembers it, a
 * malformed statement is one line with its file and row (exit 2), the report as JSON, and the
 * exit codes of corrections (3 for an unknown id, 2 for a bad month).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { radarEnvironment, radarFlags, runRadar } from "../helpers/radar_process.ts";
import { englishCsv, type FixtureRow, ofxSgml } from "../helpers/statement_fixtures.ts";

const rows: FixtureRow[] = [
  { date: "2026-03-02", amount: "-42.10", payee: "REWE Markt GmbH", balance: "957.90" },
  { date: "2026-03-13", amount: "2500.00", payee: "ACME Payroll", balance: "3457.90" },
  { date: "2026-03-15", amount: "-1234.56", payee: "Landlord & Sons", balance: "2223.34" },
];

/** `radar money import FILE --account giro --currency CODE --no-model`. */
function importArgs(file: string, currency: string): string[] {
  return ["money", "import", file, "--account", "giro", "--currency", currency, "--no-model"];
}

/** The lines of stderr that are not log lines. */
function errorLines(stderr: string): string[] {
  return stderr.trim().split("\n").filter((line) => line.startsWith("radar:"));
}

Deno.test("radar money import/report/categorize through the CLI: one line per failure, exit codes", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-money-cli-" });
  try {
    const env = {
      RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
      RADAR_CONFIG: join(home, "radar.yaml"),
    };
    Deno.writeTextFileSync(
      join(home, "radar.yaml"),
      'radar:\n  timezone: "UTC"\nllm:\n  retries: 0\n',
    );
    Deno.writeTextFileSync(join(home, "giro.csv"), englishCsv(rows));
    const args = importArgs("giro.csv", "EUR");

    const unconfirmed = await runRadar(home, args, { env });
    assert.equal(unconfirmed.code, 2);
    assert.match(
      unconfirmed.stderr,
      /giro\.csv for account "giro": detected columns\n {2}delimiter ",", decimal "\."\n {2}date: Date \(MM\/DD\/YYYY\)/,
    );
    assert.deepEqual(errorLines(unconfirmed.stderr), [
      "radar: Cannot import giro.csv: its columns were detected, not confirmed. Check them above, then run again with --yes (or set money.accounts[].csv)",
    ]);
    assert.ok(!/\n\s+at /.test(unconfirmed.stderr), "no stack trace");

    const imported = await runRadar(home, [...args, "--yes"], { env });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(
      imported.stdout,
      "Imported giro.csv (csv) into giro: 3 new, 0 already there.\nCategorised 0 by rules.\n",
    );

    Deno.writeTextFileSync(
      join(home, "broken.ofx"),
      ofxSgml(rows).replace("<TRNAMT>2500.00", "<TRNAMT>lots"),
    );
    const broken = await runRadar(home, ["money", "import", "broken.ofx", "--no-model"], { env });
    assert.equal(broken.code, 2);
    assert.deepEqual(errorLines(broken.stderr), [
      'radar: Cannot import broken.ofx: row 2: TRNAMT "lots" is not an amount',
    ]);

    const report = await runRadar(home, ["money", "report", "--month", "2026-03", "--json"], {
      env,
    });
    assert.equal(report.code, 0, report.stderr);
    const parsed = JSON.parse(report.stdout);
    assert.deepEqual(
      [
        parsed.currencies[0].currency,
        parsed.currencies[0].spentMinor,
        parsed.currencies[0].receivedMinor,
      ],
      ["EUR", 127666, 250000],
    );

    const corrected = await runRadar(home, ["money", "categorize", "1", "groceries"], { env });
    assert.equal(corrected.code, 0, corrected.stderr);
    assert.match(corrected.stdout, /Remembered: "rewe markt" is groceries\./);
    const missing = await runRadar(home, ["money", "categorize", "999", "groceries"], { env });
    assert.equal(missing.code, 3);
    assert.deepEqual(errorLines(missing.stderr), [
      "radar: No transaction 999 (radar money transactions)",
    ]);
    const badMonth = await runRadar(home, ["money", "report", "--month", "2026-13"], { env });
    assert.equal(badMonth.code, 2);
    assert.deepEqual(errorLines(badMonth.stderr), [
      'radar: --month "2026-13" is not a month: expected YYYY-MM',
    ]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

const driver = new URL("../helpers/pty_session.py", import.meta.url).pathname;

Deno.test("at a terminal the detected columns are asked about: y imports and remembers them", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-money-pty-" });
  try {
    Deno.writeTextFileSync(join(home, "radar.yaml"), 'radar:\n  timezone: "UTC"\n');
    Deno.writeTextFileSync(join(home, "giro.csv"), englishCsv(rows));
    const output = await new Deno.Command("python3", {
      args: [
        driver,
        JSON.stringify([
          ["expect", 'remember them for "giro"? [y/N] '],
          ["send", "y\r"],
          ["expect", "3 new, 0 already there."],
        ]),
        Deno.execPath(),
        "run",
        ...radarFlags,
        join(Deno.cwd(), "main.ts"),
        ...importArgs("giro.csv", "USD"),
      ],
      cwd: home,
      env: radarEnvironment(home, { RADAR_CONFIG: join(home, "radar.yaml"), TERM: "xterm" }),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, text);
    assert.match(
      text,
      /first transactions \(of 3\):\r?\n {2}2026-03-02 {2}-42\.10 USD {2}REWE Markt GmbH/,
    );
    // Remembered: the next run needs no terminal.
    Deno.writeTextFileSync(
      join(home, "april.csv"),
      englishCsv([{ ...rows[0], date: "2026-04-02" }]),
    );
    const next = await runRadar(home, importArgs("april.csv", "USD"), {
      env: { RADAR_CONFIG: join(home, "radar.yaml") },
    });
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /into giro: 1 new/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
