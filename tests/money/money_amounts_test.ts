/** Amounts as integer minor units from the text statements write, never through a float. */
import assert from "node:assert/strict";
import {
  configAmountMinor,
  currencyExponent,
  formatMinor,
  formatMoney,
  parseAmountMinor,
} from "../../src/money/money_amounts.ts";
import { cleanStatementText, merchantKey, normalizePayee } from "../../src/money/money_text.ts";

function minor(text: string, decimal: "." | "," = ".", currency = "EUR"): number | string {
  const parsed = parseAmountMinor(text, decimal, currency);
  return parsed.ok ? parsed.minor : parsed.reason;
}

Deno.test("amounts: signs, separators, symbols and codes read as exact minor units", () => {
  assert.equal(minor("-1.234,56", ","), -123456);
  assert.equal(minor("1.234,56-", ","), -123456);
  assert.equal(minor("1 234,5", ","), 123450);
  assert.equal(minor("1'234.50"), 123450);
  assert.equal(minor("(7.00)"), -700);
  assert.equal(minor("+12.3"), 1230);
  assert.equal(minor("€ 3,20", ","), 320);
  assert.equal(minor("-3,20 EUR", ","), -320);
  assert.equal(minor("US$1,000,000.01"), 100000001);
  assert.equal(minor("\u221212.34"), -1234); // a Unicode minus
  assert.equal(minor("0.00"), 0);
  assert.equal(minor("-0,00", ","), 0);
  // 0.1 + 0.2 is no problem when no float is involved.
  assert.equal(minor("0.1") as number + (minor("0.2") as number), 30);
  assert.equal(minor("19.99") as number * 3, 5997);
});

Deno.test("amounts: the currency decides the decimals (JPY none, KWD three)", () => {
  assert.equal(currencyExponent("jpy"), 0);
  assert.equal(minor("1,500", ".", "JPY"), 1500);
  assert.equal(minor("1.500", ".", "KWD"), 1500);
  assert.equal(minor("12.50", ".", "JPY"), '"12.50" has more decimals than JPY allows (0)');
  assert.equal(minor("12.345"), '"12.345" has more decimals than EUR allows (2)');
  assert.equal(minor("12.3400"), 1234, "trailing zeros are not extra precision");
});

Deno.test("amounts: what is not an amount is said so, with the text", () => {
  assert.equal(minor("abc"), '"abc" is not an amount');
  assert.equal(minor("1,23,4"), '"1,23,4" is not an amount');
  assert.equal(minor("12.34", ","), '"12.34" is not an amount', "a dot is not a decimal comma");
  assert.equal(minor(""), '"" is not an amount');
  assert.equal(minor("1e5"), '"1e5" is not an amount');
  assert.equal(minor("9".repeat(20)), `"${"9".repeat(20)}" is too large`);
  assert.match(String(minor("1".repeat(100))), /is not an amount/);
});

Deno.test("amounts: formatted back without rounding", () => {
  assert.equal(formatMinor(123456, "EUR"), "1234.56");
  assert.equal(formatMinor(-5, "EUR"), "-0.05");
  assert.equal(formatMinor(1500, "JPY"), "1500");
  assert.equal(formatMinor(1500, "KWD"), "1.500");
  assert.equal(formatMoney(-123456789, "USD"), "-1,234,567.89 USD");
  assert.equal(configAmountMinor(50, "EUR"), 5000);
  assert.equal(configAmountMinor("-12.5", "EUR"), -1250);
  assert.throws(() => configAmountMinor(1e21, "EUR"));
});

Deno.test("statement text: control and bidi characters out, payees reduced to a merchant", () => {
  assert.equal(cleanStatementText("A\u0000B\u001b[31mC\u202eD\r\nE", 100), "A B [31mC D E");
  assert.equal(cleanStatementText("x".repeat(300), 200).length, 200);
  assert.equal(normalizePayee("  REWE-Markt  GmbH//München "), "rewe markt gmbh münchen");
  assert.equal(merchantKey("REWE Markt GmbH 4711//München 03.03"), "rewe markt münchen");
  assert.equal(merchantKey("PAYPAL *NETFLIX.COM 4029357733"), "netflix");
  assert.equal(merchantKey("SEPA Lastschrift Stadtwerke"), "stadtwerke");
  assert.equal(merchantKey("12345"), "12345");
});
