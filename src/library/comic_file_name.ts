/**
 * What a comic's file name says: `Saga 054 (2018) (digital).cbz` → series Saga, number 54, year
 * 2018. Handles the shapes scanners, stores and tools write: `Saga #54`, `Saga v03 054`, `Saga Vol.
 * 3`, `Batman - The Long Halloween 01 (of 13) (1996)`, `Spider-Man 2099 001`, `Saga_054_(2018)`,
 * `[Group] Saga 054 [2018]`, `The Walking Dead v01 - Days Gone Bye (2004)`, `Saga (2012) 054`.
 * Pure.
 */

/** What a file name told. Every field is optional: a name may say only the series. */
export interface ComicNameGuess {
  series?: string;
  /** The issue number as written without leading zeros ("54", "1.5", "0"). */
  number?: string;
  volume?: string;
  year?: string;
  month?: string;
  /** Issues in a limited series: `(of 13)`. */
  count?: string;
  /** A story title after the number: `054 - The War for Phang`. */
  title?: string;
  /** The start year of the series, written right after its name: `Saga (2012) 054`. */
  seriesYear?: string;
}

const months: Record<string, string> = {
  jan: "1",
  feb: "2",
  mar: "3",
  apr: "4",
  may: "5",
  jun: "6",
  jul: "7",
  aug: "8",
  sep: "9",
  oct: "10",
  nov: "11",
  dec: "12",
};

/** Guesses series, number, volume, year and title from a file name (with or without a folder). */
export function parseComicFileName(fileName: string): ComicNameGuess {
  const base = fileName.split(/[\\/]/).at(-1) ?? "";
  let text = base.replace(/\.(cb[zrt7]|zip|rar|pdf|epub)$/i, "");
  if (!text.includes(" ") || (text.match(/_/g)?.length ?? 0) > 1) text = text.replace(/_/g, " ");
  text = text.replace(/\s+/g, " ").trim();
  const guess: ComicNameGuess = {};
  const years: { year: string; month?: string; position: number }[] = [];
  // Groups in ( ) or [ ]: years, "of N", dates; the rest (digital, scanner, covers) is dropped.
  const groupPattern = /[([]([^()[\]]*)[)\]]/g;
  let firstGroupAt = -1;
  text = text.replace(groupPattern, (_match, inner: string, position: number) => {
    const content = inner.trim();
    if (firstGroupAt < 0) firstGroupAt = position;
    const of = /^of (\d{1,4})$/i.exec(content);
    if (of) guess.count = String(Number(of[1]));
    const date = dateIn(content);
    if (date) years.push({ ...date, position });
    return " ";
  });
  text = text.replace(/\s+/g, " ").trim();
  const hash = /^(.*?)\s*#\s*(-?\d+(?:\.\d+)?[a-z]?)\b\s*(?:-\s*)?(.*)$/i.exec(text);
  if (hash) {
    text = hash[1];
    guess.number = normalizeNumber(hash[2]);
    if (hash[3]) guess.title = hash[3].trim();
  }
  const volume = /(?:^|\s)(?:v|vol\.?\s*|volume\s+)(\d{1,4})(?=\s|$)/i.exec(text);
  if (volume) {
    guess.volume = String(Number(volume[1]));
    const after = text.slice(volume.index + volume[0].length).trim();
    text = text.slice(0, volume.index).trim();
    // `v01 - Days Gone Bye`: a title; `v03 054`: the number follows.
    const rest = /^(?:-\s+)?(\d{1,4}(?:\.\d+)?[a-z]?)?(?:\s*-\s*)?(.*)$/i.exec(after);
    if (rest?.[1] && !guess.number) guess.number = normalizeNumber(rest[1]);
    if (rest?.[2] && !guess.title) guess.title = rest[2].trim();
  }
  if (!guess.number && !volume) {
    const numbered = /^(.+?)\s+(?:-\s+)?(\d{1,4}(?:\.\d+)?[a-z]?)(?:\s+-\s+(.*))?$/i.exec(text);
    // A bare year at the end (`Saga Annual 2014`) is not an issue number.
    if (numbered && !isYear(numbered[2])) {
      text = numbered[1];
      guess.number = normalizeNumber(numbered[2]);
      if (numbered[3]) guess.title = numbered[3].trim();
    }
  }
  const series = text.replace(/\s*[-–:]\s*$/, "").trim();
  if (series) guess.series = series;
  if (years.length) {
    // A year right after the series name, with another one later, is the series' start year.
    const chosen = years.length > 1 && years[0].position === firstGroupAt
      ? years.at(-1)!
      : years[0];
    guess.year = chosen.year;
    if (chosen.month) guess.month = chosen.month;
    if (chosen !== years[0]) guess.seriesYear = years[0].year;
  }
  return guess;
}

function dateIn(content: string): { year: string; month?: string } | undefined {
  let match = /^((?:19|20)\d{2})$/.exec(content);
  if (match) return { year: match[1] };
  match = /^((?:19|20)\d{2})-(\d{1,2})(?:-\d{1,2})?$/.exec(content);
  if (match && Number(match[2]) >= 1 && Number(match[2]) <= 12) {
    return { year: match[1], month: String(Number(match[2])) };
  }
  match = /^([a-z]{3})[a-z]*\.? ((?:19|20)\d{2})$/i.exec(content);
  const month = match && months[match[1].toLowerCase()];
  return month ? { year: match![2], month } : undefined;
}

function isYear(text: string): boolean {
  return /^(19|20)\d{2}$/.test(text);
}

function normalizeNumber(text: string): string {
  const match = /^(-?)0*(\d+)(.*)$/.exec(text);
  return match ? `${match[1]}${match[2]}${match[3].toLowerCase()}` : text;
}
