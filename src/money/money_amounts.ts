/**
 * Amounts as integers in minor units, from the text a statement writes ("-1.234,56", "12.50-",
 * "(7.00)", "€ 3,20") and back. No float ever holds money: digits are read as digits.
 */

/** ISO 4217 currencies whose minor unit is not the cent (the rest have 2 decimals). */
const exponents: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** Decimals of a currency's minor unit (2 unless ISO 4217 says otherwise). */
export function currencyExponent(currency: string): number {
  return exponents[currency.toUpperCase()] ?? 2;
}

/** The decimal separator of a statement's amounts. */
export type DecimalSeparator = "." | ",";

/** The largest amount accepted (10^13 minor units): a typo or a hostile file, not a balance. */
const maxDigits = 13;

/**
 * Reads an amount as minor units, or returns the reason it cannot. Accepts a sign before or
 * after the number, parentheses for negatives, currency symbols or codes around it, and
 * thousands groups (".", ",", " ", "'") only in groups of three.
 */
export function parseAmountMinor(
  text: string,
  decimal: DecimalSeparator,
  currency: string,
): { ok: true; minor: number } | { ok: false; reason: string } {
  const original = text.trim();
  if (original.length > 64) return { ok: false, reason: `"${clip(original)}" is not an amount` };
  let rest = original.replace(/[\u00a0\u202f]/g, " ").replace(/\u2212/g, "-");
  let negative = false;
  if (/^\(.*\)$/.test(rest)) {
    negative = true;
    rest = rest.slice(1, -1).trim();
  }
  rest = withoutCurrency(rest);
  const leading = /^([+-])\s*(.+)$/.exec(rest);
  const trailing = /^(.+?)\s*([+-])$/.exec(rest);
  if (leading) {
    if (leading[1] === "-") negative = !negative;
    rest = leading[2];
  } else if (trailing) {
    if (trailing[2] === "-") negative = !negative;
    rest = trailing[1];
  }
  rest = withoutCurrency(rest);
  const thousands = decimal === "," ? "[. ']" : "[, ']";
  const shape = new RegExp(
    `^(\\d{1,3}(?:${thousands}\\d{3})+|\\d+)(?:\\${decimal}(\\d+))?$`,
  );
  const match = shape.exec(rest);
  if (!match || !rest) return { ok: false, reason: `"${clip(original)}" is not an amount` };
  const whole = match[1].replace(/[^\d]/g, "").replace(/^0+(?=\d)/, "");
  const fraction = match[2] ?? "";
  const exponent = currencyExponent(currency);
  if (fraction.replace(/0+$/, "").length > exponent) {
    return {
      ok: false,
      reason: `"${clip(original)}" has more decimals than ${currency} allows (${exponent})`,
    };
  }
  if (whole.length + exponent > maxDigits) {
    return { ok: false, reason: `"${clip(original)}" is too large` };
  }
  const digits = whole + fraction.slice(0, exponent).padEnd(exponent, "0");
  const minor = Number(digits);
  return { ok: true, minor: negative && minor !== 0 ? -minor : minor };
}

/** A currency code or symbol before or after the number. */
const currencyMark = "(?:[A-Z]{3}|US\\$|[$€£¥₹₩₪₽¤]|kr)";
const currencyBefore = new RegExp(`^${currencyMark}\\s*`);
const currencyAfter = new RegExp(`\\s*${currencyMark}$`);

function withoutCurrency(text: string): string {
  return text.replace(currencyBefore, "").replace(currencyAfter, "").trim();
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Minor units as plain decimal text: 123456 EUR → "1234.56", -5 → "-0.05", 100 JPY → "100". */
export function formatMinor(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  const whole = exponent ? digits.slice(0, -exponent) : digits;
  const fraction = exponent ? `.${digits.slice(-exponent)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** Minor units with the currency, for people: "-1,234.56 EUR". */
export function formatMoney(minor: number, currency: string): string {
  const [whole, fraction] = formatMinor(minor, currency).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${grouped}${fraction === undefined ? "" : `.${fraction}`} ${currency}`;
}

/** A config amount (a YAML number or text, in whole units) as minor units; throws on a bad one. */
export function configAmountMinor(value: number | string, currency: string): number {
  const parsed = parseAmountMinor(String(value), ".", currency);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.minor;
}
