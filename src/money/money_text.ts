/**
 * Statement text made safe to store and stable to compare: control characters out, lengths
 * capped, and payees reduced to a merchant key ("REWE Markt GmbH 4711//München 03.03" → "rewe
 * markt gmbh") that rules, reports and alerts group by.
 */

/** The longest payee and description kept. */
export const maxPayeeChars = 200;
export const maxDescriptionChars = 500;

/**
 * One line of statement text: NFC, control and format characters (bidi overrides included)
 * turned into spaces, whitespace collapsed, cut to `max` characters.
 */
export function cleanStatementText(text: string, max: number): string {
  return text.normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);
}

/**
 * The payee for the dedup hash: case-folded (NFKC, lower case), every run of non-letters and
 * non-digits one space. The same payee written by two exports of one bank gives one text.
 */
export function normalizePayee(payee: string): string {
  return payee.normalize("NFKC").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Words that say how a card payment went through, not who was paid. */
const noiseWords = new Set([
  "sagt",
  "danke",
  "kartenzahlung",
  "lastschrift",
  "sepa",
  "pos",
  "ec",
  "debit",
  "card",
  "visa",
  "mastercard",
  "purchase",
  "payment",
  "paypal",
  "www",
  "com",
  "de",
  "gmbh",
  "co",
  "kg",
  "ag",
  "inc",
  "ltd",
  "llc",
  "bv",
  "sarl",
]);

/**
 * The merchant a payee names: the normalised payee without tokens holding digits (card numbers,
 * dates, store numbers, references) and without payment noise words, first three words. Empty
 * payees (and payees of digits only) fall back to the normalised text itself.
 */
export function merchantKey(payee: string): string {
  const words = normalizePayee(payee).split(" ").filter(Boolean);
  const kept = words.filter((word) => !/\d/.test(word) && !noiseWords.has(word));
  const key = kept.slice(0, 3).join(" ");
  return key || words.slice(0, 3).join(" ");
}
