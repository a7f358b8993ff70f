/**
 * The statement parsers on files the tests write: CSV in two bank layouts, OFX 1 SGML, OFX 2
 * XML, CAMT.053; and hostile or broken files: one line with the row, bounded time and size.
 */
import assert from "node:assert/strict";
import { StatementProblem } from "../../src/money/money.ts";
import {
  camtStatement,
  csvStatement,
  findHeader,
  ofxStatement,
  readCsvRecords,
} from "../../src/money/statement_parsers.ts";
import { detectMapping } from "../../src/money/csv_mapping.ts";
import { detectDateFormat, parseStatementDate } from "../../src/money/date_formats.ts";
import { ofxBodyToXml } from "../../src/money/ofx_sgml.ts";
import { decodeText, statementFormat } from "../../src/money/statement_file.ts";
import {
  camt053,
  englishCsv,
  type FixtureRow,
  germanCsv,
  ofxSgml,
  ofxXml,
} from "../helpers/statement_fixtures.ts";

const rows: FixtureRow[] = [
  {
    date: "2026-03-02",
    amount: "-42.10",
    payee: "REWE Markt GmbH",
    memo: "Karte 1234",
    balance: "957.90",
    id: "A1",
  },
  {
    date: "2026-03-03",
    amount: "2500.00",
    payee: "ACME Payroll",
    memo: "Salary",
    balance: "3457.90",
    id: "A2",
  },
  {
    date: "2026-03-15",
    amount: "-1234.56",
    payee: "Landlord & Sons",
    balance: "2223.34",
    id: "A3",
  },
];

const expected = [
  { bookedOn: "2026-03-02", amountMinor: -4210, payee: "REWE Markt GmbH" },
  { bookedOn: "2026-03-03", amountMinor: 250000, payee: "ACME Payroll" },
  { bookedOn: "2026-03-15", amountMinor: -123456, payee: "Landlord & Sons" },
];

function detect(text: string) {
  const records = readCsvRecords(text, "", 1000);
  const header = findHeader(records);
  const detection = detectMapping(
    records.delimiter,
    records.rows[header],
    records.rows.slice(header + 1),
  );
  return { records, header, detection };
}

function problemOf(work: () => unknown): { message: string; row?: number } {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof StatementProblem, String(error));
    return { message: error.message, row: error.row };
  }
  assert.fail("expected a StatementProblem");
}

Deno.test("CSV, German layout: preamble skipped, ';', decimal comma, DD.MM.YYYY, newest first", () => {
  const { records, header, detection } = detect(germanCsv(rows));
  assert.equal(records.delimiter, ";");
  assert.equal(header, 4, "the header is found below the preamble");
  assert.deepEqual(detection.problems, []);
  const mapping = detection.mapping!;
  assert.equal(mapping.date, "Buchungstag");
  assert.equal(mapping.amount, "Betrag (EUR)");
  assert.equal(mapping.payee, "Auftraggeber / Begünstigter");
  assert.equal(mapping.description, "Verwendungszweck");
  assert.equal(mapping.dateFormat, "DD.MM.YYYY");
  assert.equal(mapping.decimal, ",");
  const statement = csvStatement(records, header, mapping, "EUR");
  assert.deepEqual(
    statement.transactions.map(({ bookedOn, amountMinor, payee }) => ({
      bookedOn,
      amountMinor,
      payee,
    })),
    [...expected].reverse(),
  );
  assert.equal(statement.transactions[2].description, "Karte 1234");
  assert.equal(statement.transactions[0].row, 7, "rows are the file's line numbers");
});

Deno.test("CSV, English layout: ',', MM/DD/YYYY, debit and credit columns, running balance", () => {
  const { records, header, detection } = detect(englishCsv(rows));
  const mapping = detection.mapping!;
  assert.deepEqual(
    [mapping.delimiter, mapping.debit, mapping.credit, mapping.balance, mapping.dateFormat],
    [",", "Debit", "Credit", "Balance", "MM/DD/YYYY"],
  );
  const statement = csvStatement(records, header, mapping, "USD");
  assert.deepEqual(
    statement.transactions.map(({ bookedOn, amountMinor, payee, balanceMinor, currency }) => ({
      bookedOn,
      amountMinor,
      payee,
      balanceMinor,
      currency,
    })),
    expected.map((row, index) => ({
      ...row,
      balanceMinor: [95790, 345790, 222334][index],
      currency: "USD",
    })),
  );
});

Deno.test("CSV: dates that read two ways are a question, not a guess", () => {
  const ambiguous = [{ date: "2026-03-04", amount: "-1.00", payee: "A" }, {
    date: "2026-04-03",
    amount: "-2.00",
    payee: "B",
  }];
  const { detection } = detect(englishCsv(ambiguous));
  assert.equal(detection.mapping, undefined);
  assert.match(
    detection.problems[0],
    /read as MM\/DD\/YYYY or DD\/MM\/YYYY|read as DD\/MM\/YYYY or MM\/DD\/YYYY/,
  );
  assert.match(detection.problems[0], /--date-format/);
  assert.deepEqual(detectDateFormat(["13/03/2026", "01/03/2026"]), { format: "DD/MM/YYYY" });
  assert.equal(parseStatementDate("31.02.2026", "DD.MM.YYYY"), undefined);
  assert.equal(parseStatementDate("3 Mär 2026", "DD MMM YYYY"), "2026-03-03");
  assert.equal(parseStatementDate("03.03.26 14:02", "DD.MM.YY"), "2026-03-03");
});

Deno.test("CSV: a bad row stops the import with its line; trailer lines are skipped", () => {
  const text = germanCsv(rows).replace("-1.234,56", "-1.234,5x") +
    '"Kontostand vom 31.03.2026";"2.223,34 EUR"\r\n';
  const { records, header, detection } = detect(
    germanCsv(rows) + '"Kontostand vom 31.03.2026";"2.223,34 EUR"\r\n',
  );
  assert.equal(csvStatement(records, header, detection.mapping!, "EUR").transactions.length, 3);
  const broken = detect(text);
  const problem = problemOf(() =>
    csvStatement(broken.records, broken.header, detection.mapping!, "EUR")
  );
  assert.deepEqual(problem, { message: '"-1.234,5x" is not an amount', row: 7 });
  const badDate = germanCsv(rows).replace('"15.03.2026";"15.03.2026"', '"15.13.2026";"15.03.2026"');
  const dated = detect(badDate);
  assert.deepEqual(
    problemOf(() => csvStatement(dated.records, dated.header, detection.mapping!, "EUR")),
    { message: '"15.13.2026" is not a date in DD.MM.YYYY', row: 7 },
  );
  const many = Array.from(
    { length: 60 },
    (_, day) => ({ ...rows[0], date: `2026-03-${String(day % 28 + 1).padStart(2, "0")}` }),
  );
  assert.deepEqual(problemOf(() => readCsvRecords(germanCsv(many), "", 10)), {
    message: "more than 10 rows (money.max_rows)",
    row: undefined,
  });
});

Deno.test("CSV: Windows-1252 and UTF-16 exports decode; formats are told apart", () => {
  const latin1 = new Uint8Array([
    ...new TextEncoder().encode("Empf"),
    0xe4,
    ...new TextEncoder().encode("nger"),
  ]);
  assert.equal(decodeText(latin1), "Empfänger");
  const utf16 = new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42, 0x00]);
  assert.equal(decodeText(utf16), "AB");
  const bytes = (text: string) => new TextEncoder().encode(text);
  assert.equal(statementFormat("x.csv", bytes(germanCsv(rows))), "csv");
  assert.equal(statementFormat("x.txt", bytes(ofxSgml(rows))), "ofx");
  assert.equal(statementFormat("x.qfx", bytes(ofxXml(rows))), "ofx");
  assert.equal(statementFormat("x", bytes(camt053(rows))), "camt053");
});

Deno.test("OFX 1 SGML: unclosed leaves, FITID as id, ledger balance, entities", () => {
  const text = ofxSgml([...rows, {
    date: "2026-03-20",
    amount: "-9.99",
    payee: "AT&T <Wireless>",
    id: "A4",
  }], {
    ledger: { amount: "2213.35", date: "2026-03-31" },
  });
  const statement = ofxStatement(text, 1000);
  assert.equal(statement.format, "ofx");
  const [account] = statement.accounts;
  assert.equal(account.accountId, "000123456789");
  assert.equal(account.currency, "USD");
  assert.deepEqual(account.closingBalance, {
    amountMinor: 221335,
    currency: "USD",
    on: "2026-03-31",
  });
  assert.deepEqual(account.transactions.map((row) => row.bankId), ["A1", "A2", "A3", "A4"]);
  assert.equal(account.transactions[3].payee, "AT&T <Wireless>");
  assert.deepEqual(
    account.transactions.slice(0, 3).map(({ bookedOn, amountMinor, payee }) => ({
      bookedOn,
      amountMinor,
      payee,
    })),
    expected,
  );
});

Deno.test("OFX 2 XML credit card statement", () => {
  const [account] = ofxStatement(ofxXml(rows), 1000).accounts;
  assert.equal(account.accountId, "4111111111111111");
  assert.equal(account.currency, "EUR");
  assert.deepEqual(account.transactions.map((row) => row.amountMinor), [-4210, 250000, -123456]);
  assert.equal(account.transactions[0].description, "Karte 1234");
});

Deno.test("OFX SGML to XML: linear on hostile tags; broken files are one line", () => {
  // The npm parsers' regex takes seconds on one 26-letter tag (measured): here it is linear.
  const started = performance.now();
  const hostile = `<OFX><${"A".repeat(60)}>x${"<B>y".repeat(50_000)}</OFX>`;
  ofxBodyToXml(hostile);
  assert.ok(performance.now() - started < 2000);
  assert.equal(
    ofxBodyToXml("<OFX><A><B>1<C></C><D>2</D></A></OFX>"),
    "<OFX><A><B>1</B><C></C><D>2</D></A></OFX>",
  );
  assert.deepEqual(problemOf(() => ofxBodyToXml(`<OFX>${"<A>".repeat(100)}`)), {
    message: "OFX elements nested too deeply",
    row: undefined,
  });
  assert.match(problemOf(() => ofxStatement("hello", 10)).message, /not an OFX file/);
  assert.match(
    problemOf(() => ofxStatement(ofxSgml(rows).replace("<TRNAMT>-42.10", "<TRNAMT>lots"), 10))
      .message,
    /TRNAMT "lots" is not an amount/,
  );
  assert.equal(
    problemOf(() => ofxStatement(ofxSgml(rows), 2)).message,
    "more than 2 transactions (money.max_rows)",
  );
});

Deno.test("CAMT.053: booked entries signed by CdtDbtInd, counterparty as payee, closing balance", () => {
  const xml = camt053(rows, { closing: { amount: "2223.34", date: "2026-03-31" } })
    .replace("<Sts><Cd>BOOK</Cd></Sts>", "<Sts><Cd>PDNG</Cd></Sts>");
  const [account] = camtStatement(xml, 1000).accounts;
  assert.equal(account.accountId, "DE02120300000000202051");
  assert.deepEqual(account.closingBalance, {
    amountMinor: 222334,
    currency: "EUR",
    on: "2026-03-31",
  });
  assert.deepEqual(
    account.transactions.map((row) => row.amountMinor),
    [250000, -123456],
    "pending left out",
  );
  assert.deepEqual(account.transactions.map((row) => row.bankId), ["A2", "A3"]);
  assert.equal(account.transactions[0].payee, "ACME Payroll");
  assert.equal(account.transactions[0].description, "Salary");
});

Deno.test("CAMT: no DTD, no entities, malformed XML with its line, not-CAMT said so", () => {
  const bomb = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Document>&a;</Document>`;
  assert.match(problemOf(() => camtStatement(bomb, 10)).message, /DTD or entities/);
  const broken = camt053(rows).replace("</Ntry>", "</Ntryx>");
  const problem = problemOf(() => camtStatement(broken, 10));
  assert.match(problem.message, /^not well-formed XML/);
  assert.ok(problem.row !== undefined && problem.row > 5);
  assert.match(
    problemOf(() => camtStatement("<Document><Other/></Document>", 10)).message,
    /not a CAMT.053/,
  );
  assert.match(problemOf(() => camtStatement(camt053(rows), 2)).message, /more than 2 entries/);
});

Deno.test("hostile shapes: nesting past the parser's limit, a 200 KB cell, too many entries: one line, fast", () => {
  const deep = `<?xml version="1.0"?><Document>${"<a>".repeat(20_000)}${
    "</a>".repeat(20_000)
  }</Document>`;
  assert.match(problemOf(() => camtStatement(deep, 10)).message, /^unreadable XML \(/);
  const wideCell = `Date,Description,Amount\n2026-03-01,"${"x".repeat(200_000)}",1.00\n`;
  assert.match(
    problemOf(() => readCsvRecords(wideCell, ",", 10)).message,
    /^not a readable CSV file/,
  );
  // Counted before parsing: a file with more entries than allowed is refused at once.
  const many = camt053(Array.from({ length: 30 }, (_, index) => ({ ...rows[0], id: `M${index}` })));
  const started = performance.now();
  assert.equal(
    problemOf(() => camtStatement(many, 20)).message,
    "more than 20 entries (money.max_rows)",
  );
  assert.ok(performance.now() - started < 1000);
  assert.equal(
    problemOf(() => ofxStatement(ofxSgml(Array.from({ length: 30 }, () => rows[0])), 20)).message,
    "more than 20 transactions (money.max_rows)",
  );
});
