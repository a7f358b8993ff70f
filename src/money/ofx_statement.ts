/**
 * OFX and QFX statements (OFX 1.x SGML and OFX 2.x XML), bank and credit-card: the header says the
 * character set, `ofxBodyToXml` makes the body XML, fast-xml-parser reads it, and each statement
 * (`STMTRS`, `CCSTMTRS`) becomes one account with its transactions (FITID as the bank's id) and
 * its ledger balance.
 */
import { parseAmountMinor } from "./money_amounts.ts";
import {
  type ParsedStatement,
  type StatementAccount,
  StatementProblem,
  type StatementTransaction,
} from "./money.ts";
import { cleanStatementText, maxDescriptionChars, maxPayeeChars } from "./money_text.ts";
import { ofxBodyToXml } from "./ofx_sgml.ts";
import {
  childAt,
  childrenOf,
  countElements,
  parseStatementXml,
  textOf,
  type XmlNode,
} from "./xml_document.ts";

/** Decodes an OFX file with the character set its header names (UTF-8 or Windows-1252 else). */
export function decodeOfx(bytes: Uint8Array): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const charset = /CHARSET:\s*([\w-]+)/i.exec(head)?.[1] ?? "";
  const encoding = /ENCODING:\s*([\w-]+)/i.exec(head)?.[1] ??
    /encoding=["']([\w-]+)["']/i.exec(head)?.[1] ?? "";
  if (/^utf-?8$/i.test(encoding)) return new TextDecoder("utf-8").decode(bytes);
  if (/^(1252|windows-1252)$/i.test(charset)) return new TextDecoder("windows-1252").decode(bytes);
  if (/8859-1|latin/i.test(charset)) return new TextDecoder("latin1").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** An OFX date (YYYYMMDD[HHMMSS[.XXX][[±H:TZ]]]) as YYYY-MM-DD. */
function ofxDate(text: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1900) {
    return undefined;
  }
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** An OFX amount: "." decimals, though some European banks write ",". */
function ofxAmount(text: string, currency: string, row: number): number {
  const decimal = text.includes(",") && !text.includes(".") ? "," : ".";
  const parsed = parseAmountMinor(text, decimal, currency);
  if (!parsed.ok) throw new StatementProblem(`TRNAMT ${parsed.reason}`, row);
  return parsed.minor;
}

function transactionOf(entry: XmlNode, currency: string, row: number): StatementTransaction {
  const bookedOn = ofxDate(textOf(childAt(entry, "DTPOSTED")));
  if (!bookedOn) {
    throw new StatementProblem(
      `DTPOSTED "${textOf(childAt(entry, "DTPOSTED")).slice(0, 30)}" is not a date`,
      row,
    );
  }
  const ownCurrency = textOf(childAt(entry, "CURRENCY", "CURSYM")).toUpperCase();
  const rowCurrency = /^[A-Z]{3}$/.test(ownCurrency) ? ownCurrency : currency;
  const name = textOf(childAt(entry, "NAME")) || textOf(childAt(entry, "PAYEE", "NAME"));
  const memo = textOf(childAt(entry, "MEMO"));
  const fitId = textOf(childAt(entry, "FITID"));
  const payee = cleanStatementText(name || memo, maxPayeeChars);
  return {
    bookedOn,
    amountMinor: ofxAmount(textOf(childAt(entry, "TRNAMT")), rowCurrency, row),
    currency: rowCurrency,
    payee,
    description: cleanStatementText(name ? memo : "", maxDescriptionChars),
    ...(fitId ? { bankId: fitId.slice(0, 255) } : {}),
    row,
  };
}

function statementOf(
  response: XmlNode,
  accountTag: string,
  fallbackCurrency: string | undefined,
  counter: { rows: number; max: number },
): StatementAccount {
  const currency = textOf(childAt(response, "CURDEF")).toUpperCase() || fallbackCurrency;
  if (!currency || !/^[A-Z]{3}$/.test(currency)) {
    throw new StatementProblem("the statement names no currency (CURDEF); set the account's");
  }
  const accountId = textOf(childAt(response, accountTag, "ACCTID"));
  const transactions: StatementTransaction[] = [];
  for (const entry of childrenOf(childAt(response, "BANKTRANLIST"), "STMTTRN")) {
    if (++counter.rows > counter.max) {
      throw new StatementProblem(`more than ${counter.max} transactions (money.max_rows)`);
    }
    transactions.push(transactionOf(entry, currency, counter.rows));
  }
  const ledger = childAt(response, "LEDGERBAL");
  const balanceText = textOf(childAt(ledger, "BALAMT"));
  const balanceOn = ofxDate(textOf(childAt(ledger, "DTASOF")));
  const closingBalance = balanceText && balanceOn
    ? { amountMinor: ofxAmount(balanceText, currency, 0), currency, on: balanceOn }
    : undefined;
  return {
    ...(accountId ? { accountId } : {}),
    currency,
    transactions,
    ...(closingBalance ? { closingBalance } : {}),
  };
}

/** Reads an OFX/QFX file (already decoded) into its statements. */
export function ofxStatement(
  text: string,
  maxRows: number,
  fallbackCurrency?: string,
): ParsedStatement {
  const start = text.search(/<OFX>/i);
  if (start < 0) throw new StatementProblem("no <OFX> element: not an OFX file");
  if (countElements(text, "STMTTRN") > maxRows) {
    throw new StatementProblem(`more than ${maxRows} transactions (money.max_rows)`);
  }
  const xml = ofxBodyToXml(text.slice(start));
  const document = parseStatementXml(xml, ["STMTTRNRS", "CCSTMTTRNRS", "STMTTRN"]);
  const ofx = document.OFX;
  const counter = { rows: 0, max: maxRows };
  const accounts = [
    // A response without a statement (an error status) holds no transactions.
    ...childrenOf(childAt(ofx, "BANKMSGSRSV1"), "STMTTRNRS")
      .map((wrapper) => childAt(wrapper, "STMTRS")).filter(Boolean)
      .map((response) => statementOf(response, "BANKACCTFROM", fallbackCurrency, counter)),
    ...childrenOf(childAt(ofx, "CREDITCARDMSGSRSV1"), "CCSTMTTRNRS")
      .map((wrapper) => childAt(wrapper, "CCSTMTRS")).filter(Boolean)
      .map((response) => statementOf(response, "CCACCTFROM", fallbackCurrency, counter)),
  ];
  if (!accounts.length) {
    throw new StatementProblem("the OFX file holds no bank or credit-card statement");
  }
  return { format: "ofx", accounts };
}
