/**
 * ISO 20022 CAMT.053 bank statements (versions 02 to 13; CAMT.052 reports and CAMT.054
 * notifications share the entry shape and are read too) through fast-xml-parser. Each booked
 * entry (`Ntry` with status BOOK) is one transaction: signed by CdtDbtInd, dated by its booking
 * date, the counterparty as payee, the remittance text as description, AcctSvcrRef (else a
 * NtryRef that is more than a sequence number) as the bank's id. The closing booked balance
 * (CLBD) is the account's balance.
 */
import { parseAmountMinor } from "./money_amounts.ts";
import {
  type ParsedStatement,
  type StatementAccount,
  StatementProblem,
  type StatementTransaction,
} from "./money.ts";
import { cleanStatementText, maxDescriptionChars, maxPayeeChars } from "./money_text.ts";
import {
  childAt,
  childrenOf,
  countElements,
  parseStatementXml,
  textOf,
  type XmlNode,
} from "./xml_document.ts";

/** The message kinds that carry entries, and the name of their repeating part. */
const messages: ReadonlyArray<[string, string]> = [
  ["BkToCstmrStmt", "Stmt"],
  ["BkToCstmrAcctRpt", "Rpt"],
  ["BkToCstmrDbtCdtNtfctn", "Ntfctn"],
];

/** A NtryRef this short is a sequence number within one statement, not an id across files. */
const minEntryRefChars = 8;

function signedAmount(node: XmlNode, indicator: string, row: number): {
  minor: number;
  currency: string;
} {
  const currency = (typeof node === "object" ? String(node?.["@Ccy"] ?? "") : "").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new StatementProblem("an amount has no currency", row);
  const parsed = parseAmountMinor(textOf(node), ".", currency);
  if (!parsed.ok) throw new StatementProblem(parsed.reason, row);
  if (parsed.minor < 0) {
    throw new StatementProblem("an amount is negative (CdtDbtInd signs it)", row);
  }
  if (indicator !== "DBIT" && indicator !== "CRDT") {
    throw new StatementProblem(
      `CdtDbtInd "${indicator.slice(0, 10)}" is neither CRDT nor DBIT`,
      row,
    );
  }
  return { minor: indicator === "DBIT" ? -parsed.minor : parsed.minor, currency };
}

function dateOf(node: XmlNode): string | undefined {
  const text = textOf(childAt(node, "Dt")) || textOf(childAt(node, "DtTm"));
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : undefined;
}

/** A party's name in either shape (`Cdtr/Nm` up to version 07, `Cdtr/Pty/Nm` after). */
function partyName(parties: XmlNode, role: string): string {
  return textOf(childAt(parties, role, "Nm")) || textOf(childAt(parties, role, "Pty", "Nm"));
}

function entryStatus(entry: XmlNode): string {
  return (textOf(childAt(entry, "Sts")) || textOf(childAt(entry, "Sts", "Cd"))).toUpperCase();
}

function transactionOf(entry: XmlNode, row: number): StatementTransaction {
  const indicator = textOf(childAt(entry, "CdtDbtInd")).toUpperCase();
  const { minor, currency } = signedAmount(childAt(entry, "Amt"), indicator, row);
  const bookedOn = dateOf(childAt(entry, "BookgDt")) ?? dateOf(childAt(entry, "ValDt"));
  if (!bookedOn) throw new StatementProblem("an entry has no booking date", row);
  const details = childAt(entry, "NtryDtls", "TxDtls");
  const parties = childAt(details, "RltdPties");
  const payee = indicator === "DBIT"
    ? partyName(parties, "Cdtr") || partyName(parties, "UltmtCdtr")
    : partyName(parties, "Dbtr") || partyName(parties, "UltmtDbtr");
  const remittance = childrenOf(childAt(details, "RmtInf"), "Ustrd").map(textOf).join(" ");
  const extra = textOf(childAt(entry, "AddtlNtryInf"));
  const entryRef = textOf(childAt(entry, "NtryRef"));
  const bankId = textOf(childAt(entry, "AcctSvcrRef")) ||
    textOf(childAt(details, "Refs", "AcctSvcrRef")) ||
    (entryRef.length >= minEntryRefChars ? entryRef : "");
  const description = [remittance, extra].filter(Boolean).join(" · ");
  return {
    bookedOn,
    amountMinor: minor,
    currency,
    payee: cleanStatementText(payee || extra || remittance, maxPayeeChars),
    description: cleanStatementText(payee ? description : remittance, maxDescriptionChars),
    ...(bankId ? { bankId: bankId.slice(0, 255) } : {}),
    row,
  };
}

function closingBalance(statement: XmlNode, row: number): StatementAccount["closingBalance"] {
  const balances = childrenOf(statement, "Bal");
  const closing = balances.find((balance) =>
    textOf(childAt(balance, "Tp", "CdOrPrtry", "Cd")).toUpperCase() === "CLBD"
  );
  if (!closing) return undefined;
  const on = dateOf(childAt(closing, "Dt"));
  if (!on) return undefined;
  const indicator = textOf(childAt(closing, "CdtDbtInd")).toUpperCase() || "CRDT";
  const { minor, currency } = signedAmount(childAt(closing, "Amt"), indicator, row);
  return { amountMinor: minor, currency, on };
}

/** Reads a CAMT.053 (or .052/.054) file into its statements. */
export function camtStatement(xml: string, maxRows: number): ParsedStatement {
  if (countElements(xml, "Ntry") > maxRows) {
    throw new StatementProblem(`more than ${maxRows} entries (money.max_rows)`);
  }
  const document = parseStatementXml(xml, ["Stmt", "Rpt", "Ntfctn", "Ntry", "Bal", "Ustrd"]);
  const root = document.Document;
  const kind = messages.find(([message]) => childAt(root, message) !== undefined);
  if (!kind) throw new StatementProblem("no BkToCstmrStmt: not a CAMT.053 statement");
  let rows = 0;
  const accounts = childrenOf(childAt(root, kind[0]), kind[1]).map((statement) => {
    const account = childAt(statement, "Acct");
    const accountId = textOf(childAt(account, "Id", "IBAN")) ||
      textOf(childAt(account, "Id", "Othr", "Id"));
    const transactions: StatementTransaction[] = [];
    for (const entry of childrenOf(statement, "Ntry")) {
      if (++rows > maxRows) {
        throw new StatementProblem(`more than ${maxRows} entries (money.max_rows)`);
      }
      const status = entryStatus(entry);
      if (status && status !== "BOOK") continue; // pending or information only
      transactions.push(transactionOf(entry, rows));
    }
    const currency = textOf(childAt(account, "Ccy")).toUpperCase() || transactions[0]?.currency;
    const balance = closingBalance(statement, rows);
    return {
      ...(accountId ? { accountId } : {}),
      ...(currency ? { currency } : {}),
      transactions,
      ...(balance ? { closingBalance: balance } : {}),
    };
  });
  if (!accounts.length) throw new StatementProblem("the CAMT file holds no statement");
  return { format: "camt053", accounts };
}
