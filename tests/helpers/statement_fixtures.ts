/**
 * Statement files the money tests write themselves: CSV in two bank layouts (a German export
 * with a preamble, ";" and decimal commas; an English one with debit/credit columns and a
 * running balance), OFX 1.x SGML, OFX 2.x XML and CAMT.053 — from one list of transactions.
 */

/** One transaction of a fixture (amounts as decimal text, spending negative). */
export interface FixtureRow {
  date: string; // YYYY-MM-DD
  amount: string; // "-12.34"
  payee: string;
  memo?: string;
  /** Balance after it ("1234.56"). */
  balance?: string;
  /** The bank's id (OFX FITID, CAMT AcctSvcrRef). */
  id?: string;
}

function germanDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${day}.${month}.${year}`;
}

function usDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${month}/${day}/${year}`;
}

/** "-1234.5" as German text: "-1.234,50". */
export function germanAmount(amount: string): string {
  const negative = amount.startsWith("-");
  const [whole, fraction = ""] = amount.replace(/^-/, "").split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${negative ? "-" : ""}${grouped},${fraction.padEnd(2, "0")}`;
}

function quote(text: string, delimiter: string): string {
  return /["\n\r]/.test(text) || text.includes(delimiter) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A German bank's CSV: preamble lines, ";" separated, DD.MM.YYYY, decimal comma, newest first. */
export function germanCsv(rows: FixtureRow[], iban = "DE89370400440532013000"): string {
  const lines = [
    `"Kontonummer:";"${iban} / Girokonto";`,
    `"Von:";"01.03.2026";`,
    `"Bis:";"31.03.2026";`,
    `"Kontostand vom 31.03.2026:";"1.234,56 EUR";`,
    "",
    '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"Kontonummer";"BLZ";"Betrag (EUR)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz";',
  ];
  for (const row of [...rows].reverse()) {
    lines.push(
      [
        germanDate(row.date),
        germanDate(row.date),
        row.amount.startsWith("-") ? "Lastschrift" : "Gutschrift",
        row.payee,
        row.memo ?? "",
        "DE00123",
        "10000000",
        germanAmount(row.amount),
        "",
        "",
        "",
      ].map((cell) => `"${cell.replace(/"/g, '""')}"`).join(";") + ";",
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** An English bank's CSV: ",", MM/DD/YYYY, Debit and Credit columns, a running balance. */
export function englishCsv(rows: FixtureRow[]): string {
  const lines = ["Date,Description,Debit,Credit,Balance"];
  for (const row of rows) {
    const debit = row.amount.startsWith("-") ? row.amount.slice(1) : "";
    const credit = row.amount.startsWith("-") ? "" : row.amount;
    lines.push(
      [usDate(row.date), row.payee, debit, credit, row.balance ?? ""].map((cell) =>
        quote(cell, ",")
      )
        .join(","),
    );
  }
  return lines.join("\n") + "\n";
}

function ofxDate(date: string): string {
  return `${date.replace(/-/g, "")}120000.000[-5:EST]`;
}

function escapeSgml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** OFX 1.02 SGML (unclosed leaves, Windows line ends) of a checking account. */
export function ofxSgml(
  rows: FixtureRow[],
  options: { account?: string; currency?: string; ledger?: { amount: string; date: string } } = {},
): string {
  const header = [
    "OFXHEADER:100",
    "DATA:OFXSGML",
    "VERSION:102",
    "SECURITY:NONE",
    "ENCODING:USASCII",
    "CHARSET:1252",
    "COMPRESSION:NONE",
    "OLDFILEUID:NONE",
    "NEWFILEUID:NONE",
    "",
  ];
  const body = [
    "<OFX>",
    "<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260331120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>",
    "<BANKMSGSRSV1>",
    "<STMTTRNRS>",
    "<TRNUID>1",
    "<STATUS><CODE>0<SEVERITY>INFO</STATUS>",
    "<STMTRS>",
    `<CURDEF>${options.currency ?? "USD"}`,
    `<BANKACCTFROM><BANKID>121000358<ACCTID>${
      options.account ?? "000123456789"
    }<ACCTTYPE>CHECKING</BANKACCTFROM>`,
    "<BANKTRANLIST>",
    "<DTSTART>20260301",
    "<DTEND>20260331",
  ];
  for (const row of rows) {
    body.push(
      "<STMTTRN>",
      `<TRNTYPE>${row.amount.startsWith("-") ? "DEBIT" : "CREDIT"}`,
      `<DTPOSTED>${ofxDate(row.date)}`,
      `<TRNAMT>${row.amount}`,
      `<FITID>${row.id ?? `${row.date}-${row.amount}`}`,
      `<NAME>${escapeSgml(row.payee)}`,
      ...(row.memo ? [`<MEMO>${escapeSgml(row.memo)}`] : []),
      "</STMTTRN>",
    );
  }
  body.push("</BANKTRANLIST>");
  if (options.ledger) {
    body.push(
      `<LEDGERBAL><BALAMT>${options.ledger.amount}<DTASOF>${
        ofxDate(options.ledger.date)
      }</LEDGERBAL>`,
    );
  }
  body.push("</STMTRS>", "</STMTTRNRS>", "</BANKMSGSRSV1>", "</OFX>");
  return [...header, ...body].join("\r\n") + "\r\n";
}

/** OFX 2.1.1 XML of a credit card. */
export function ofxXml(
  rows: FixtureRow[],
  options: { account?: string; currency?: string } = {},
): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const entries = rows.map((row) =>
    `      <STMTTRN>
        <TRNTYPE>${row.amount.startsWith("-") ? "DEBIT" : "CREDIT"}</TRNTYPE>
        <DTPOSTED>${row.date.replace(/-/g, "")}</DTPOSTED>
        <TRNAMT>${row.amount}</TRNAMT>
        <FITID>${row.id ?? `${row.date}:${row.amount}`}</FITID>
        <NAME>${escape(row.payee)}</NAME>${
      row.memo ? `\n        <MEMO>${escape(row.memo)}</MEMO>` : ""
    }
      </STMTTRN>`
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20260331</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>
  <CREDITCARDMSGSRSV1>
    <CCSTMTTRNRS>
      <TRNUID>1</TRNUID>
      <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
      <CCSTMTRS>
        <CURDEF>${options.currency ?? "EUR"}</CURDEF>
        <CCACCTFROM><ACCTID>${options.account ?? "4111111111111111"}</ACCTID></CCACCTFROM>
        <BANKTRANLIST>
          <DTSTART>20260301</DTSTART>
          <DTEND>20260331</DTEND>
${entries}
        </BANKTRANLIST>
      </CCSTMTRS>
    </CCSTMTTRNRS>
  </CREDITCARDMSGSRSV1>
</OFX>
`;
}

/** A CAMT.053.001.08 statement (namespaced, Cdtr/Pty/Nm shape) with a closing balance. */
export function camt053(
  rows: FixtureRow[],
  options: { iban?: string; closing?: { amount: string; date: string }; statementId?: string } = {},
): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const entries = rows.map((row, index) => {
    const debit = row.amount.startsWith("-");
    const party = debit ? "Cdtr" : "Dbtr";
    return `      <Ntry>
        <NtryRef>${index + 1}</NtryRef>
        <Amt Ccy="EUR">${row.amount.replace(/^-/, "")}</Amt>
        <CdtDbtInd>${debit ? "DBIT" : "CRDT"}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${row.date}</Dt></BookgDt>
        <ValDt><Dt>${row.date}</Dt></ValDt>${
      row.id ? `\n        <AcctSvcrRef>${row.id}</AcctSvcrRef>` : ""
    }
        <BkTxCd><Prtry><Cd>NMSC</Cd></Prtry></BkTxCd>
        <NtryDtls><TxDtls>
          <RltdPties><${party}><Pty><Nm>${escape(row.payee)}</Nm></Pty></${party}></RltdPties>
          <RmtInf><Ustrd>${escape(row.memo ?? "")}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  }).join("\n");
  const closing = options.closing
    ? `
      <Bal>
        <Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">${options.closing.amount.replace(/^-/, "")}</Amt>
        <CdtDbtInd>${options.closing.amount.startsWith("-") ? "DBIT" : "CRDT"}</CdtDbtInd>
        <Dt><Dt>${options.closing.date}</Dt></Dt>
      </Bal>`
    : "";
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-03-31T18:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${options.statementId ?? "STMT-1"}</Id>
      <Acct><Id><IBAN>${
    options.iban ?? "DE02120300000000202051"
  }</IBAN></Id><Ccy>EUR</Ccy></Acct>${closing}
${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
