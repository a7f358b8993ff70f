/**
 * Statement dates in the formats banks write (DD.MM.YYYY, MM/DD/YYYY, YYYY-MM-DD, 03 Mar 2026…),
 * read to YYYY-MM-DD, and which format a column of dates is in. A format is tokens (DD, D, MM,
 * M, MMM, YYYY, YY) and separators; day and month accept one or two digits either way.
 */

/** The formats tried when a CSV's date format is not given, most common first. */
const candidateDateFormats = [
  "YYYY-MM-DD",
  "DD.MM.YYYY",
  "DD.MM.YY",
  "DD/MM/YYYY",
  "MM/DD/YYYY",
  "DD-MM-YYYY",
  "MM-DD-YYYY",
  "YYYY/MM/DD",
  "YYYYMMDD",
  "DD/MM/YY",
  "MM/DD/YY",
  "DD MMM YYYY",
  "DD-MMM-YYYY",
  "DD-MMM-YY",
] as const;

const monthNames = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
];
/** German, French, Spanish, Dutch, Italian spellings that differ from the English ones. */
const otherMonthNames: Record<string, number> = {
  "mär": 3,
  "mrz": 3,
  "mai": 5,
  "okt": 10,
  "dez": 12,
  "janv": 1,
  "févr": 2,
  "fév": 2,
  "avr": 4,
  "juin": 6,
  "juil": 7,
  "déc": 12,
  "ene": 1,
  "abr": 4,
  "ago": 8,
  "dic": 12,
  "mrt": 3,
  "mei": 5,
  "gen": 1,
  "mag": 5,
  "giu": 6,
  "lug": 7,
  "set": 9,
  "ott": 10,
};

const tokenPatterns: Record<string, string> = {
  YYYY: "(\\d{4})",
  YY: "(\\d{2})",
  MMM: "([\\p{L}]{3,5})\\.?",
  MM: "(\\d{1,2})",
  M: "(\\d{1,2})",
  DD: "(\\d{1,2})",
  D: "(\\d{1,2})",
};

interface CompiledFormat {
  pattern: RegExp;
  order: string[];
}

const compiled = new Map<string, CompiledFormat>();

function compile(format: string): CompiledFormat {
  const cached = compiled.get(format);
  if (cached) return cached;
  const order: string[] = [];
  let source = "";
  for (const part of format.match(/YYYY|YY|MMM|MM|M|DD|D|[^DMY]/g) ?? []) {
    if (tokenPatterns[part]) {
      order.push(part);
      source += tokenPatterns[part];
    } else source += part === " " ? "\\s+" : part === "." || part === "/" ? `\\${part}` : part;
  }
  // A time after the date (some exports write "03.03.2026 14:02") is allowed and ignored.
  const result = {
    pattern: new RegExp(`^${source}(?:[ T]\\d{1,2}:\\d{2}(?::\\d{2})?)?$`, "u"),
    order,
  };
  compiled.set(format, result);
  return result;
}

function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, "");
  const english = monthNames.indexOf(lower.slice(0, 3));
  if (english >= 0 && (lower.length === 3 || lower.startsWith(monthNames[english]))) {
    return english + 1;
  }
  return otherMonthNames[lower] ?? otherMonthNames[lower.slice(0, 3)];
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Reads `text` in `format` as YYYY-MM-DD, or undefined when it is not a date in that format. */
export function parseStatementDate(text: string, format: string): string | undefined {
  const { pattern, order } = compile(format);
  const match = pattern.exec(text.trim());
  if (!match) return undefined;
  let year = 0;
  let month = 0;
  let day = 0;
  order.forEach((token, index) => {
    const value = match[index + 1];
    if (token === "YYYY") year = Number(value);
    else if (token === "YY") year = 2000 + Number(value);
    else if (token === "MMM") month = monthOf(value) ?? 0;
    else if (token === "MM" || token === "M") month = Number(value);
    else day = Number(value);
  });
  if (year < 1900 || year > 2200 || month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysIn(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** What date-format detection found. */
export type DateFormatGuess =
  | { format: string }
  | { ambiguous: string[]; example: string }
  | { none: true; example: string };

/**
 * The format every non-empty value of a date column reads in. Two formats that both read every
 * value (03/04/2026: DD/MM or MM/DD) are ambiguous: the person has to say which.
 */
export function detectDateFormat(values: readonly string[]): DateFormatGuess {
  const dates = values.map((value) => value.trim()).filter(Boolean).slice(0, 500);
  const fitting = candidateDateFormats.filter((format) =>
    dates.length > 0 && dates.every((value) => parseStatementDate(value, format) !== undefined)
  );
  if (fitting.length === 1) return { format: fitting[0] };
  if (fitting.length > 1) {
    // The same reading under two names (DD.MM.YYYY vs DD.MM.YY never both fit) is not ambiguous.
    const readings = new Set(
      fitting.map((format) => dates.map((value) => parseStatementDate(value, format)).join()),
    );
    if (readings.size === 1) return { format: fitting[0] };
    return { ambiguous: fitting, example: dates.find((value) => /\d/.test(value)) ?? dates[0] };
  }
  return { none: true, example: dates[0] ?? "" };
}
