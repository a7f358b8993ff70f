/**
 * ComicInfo.xml, the de-facto metadata file inside comic archives (ComicRack's schema, read by
 * Kavita, Komga, Mylar, Calibre): its fields, and the pure rules for values Radar writes into it.
 * Parsing and writing the XML happen in the document subprocess (src/adapters/archive/).
 */

/** The schema's simple fields, in the order ComicRack writes them. */
export const comicInfoFields = [
  "Title",
  "Series",
  "Number",
  "Count",
  "Volume",
  "AlternateSeries",
  "AlternateNumber",
  "AlternateCount",
  "Summary",
  "Notes",
  "Year",
  "Month",
  "Day",
  "Writer",
  "Penciller",
  "Inker",
  "Colorist",
  "Letterer",
  "CoverArtist",
  "Editor",
  "Translator",
  "Publisher",
  "Imprint",
  "Genre",
  "Tags",
  "Web",
  "PageCount",
  "LanguageISO",
  "Format",
  "BlackAndWhite",
  "Manga",
  "Characters",
  "Teams",
  "Locations",
  "ScanInformation",
  "StoryArc",
  "StoryArcNumber",
  "SeriesGroup",
  "AgeRating",
  "CommunityRating",
  "MainCharacterOrTeam",
  "Review",
  "GTIN",
] as const;

/** One ComicInfo.xml field name. */
export type ComicInfoField = typeof comicInfoFields[number];

/** The fields of one ComicInfo.xml that are set (values as text, trimmed). */
export type ComicInfo = Partial<Record<ComicInfoField, string>>;

const integerFields = new Set<ComicInfoField>([
  "Count",
  "Volume",
  "AlternateCount",
  "Year",
  "Month",
  "Day",
  "PageCount",
]);

const enumFields: Partial<Record<ComicInfoField, readonly string[]>> = {
  BlackAndWhite: ["Unknown", "No", "Yes"],
  Manga: ["Unknown", "No", "Yes", "YesAndRightToLeft"],
};

/** Longest value kept for Summary, Notes and Review; other fields are cut at `maxFieldChars`. */
export const maxLongFieldChars = 4000;
/** Longest value kept for every other field. */
export const maxFieldChars = 500;

const longFields = new Set<ComicInfoField>(["Summary", "Notes", "Review"]);

/** The canonical field name for any casing ("series" → "Series"), or undefined. */
export function comicInfoField(name: string): ComicInfoField | undefined {
  const lower = name.trim().toLowerCase();
  return comicInfoFields.find((field) => field.toLowerCase() === lower);
}

/**
 * Cleans one value read from an archive or given to be written: control characters become spaces,
 * runs of blanks are squeezed, the text is cut to the field's length.
 */
export function cleanFieldValue(field: ComicInfoField, value: string): string {
  // deno-lint-ignore no-control-regex
  const text = value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ")
    .replace(longFields.has(field) ? /[ \t]+/g : /\s+/g, " ").trim();
  return text.slice(0, longFields.has(field) ? maxLongFieldChars : maxFieldChars);
}

/** A set of changes checked field by field: the clean values, or one line per problem. */
export type CheckedChanges =
  | { ok: true; changes: Partial<Record<ComicInfoField, string | null>> }
  | { ok: false; problems: string[] };

/**
 * Checks changes to write (`null` or "" removes a field): known field names only, whole numbers
 * where the schema wants them (Year 1000–2999, Month 1–12, Day 1–31), the schema's enum values.
 */
export function checkComicInfoChanges(
  changes: Record<string, string | number | null>,
): CheckedChanges {
  const clean: Partial<Record<ComicInfoField, string | null>> = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(changes)) {
    const field = comicInfoField(name);
    if (!field) {
      problems.push(`${name.slice(0, 40)} is not a ComicInfo.xml field`);
      continue;
    }
    if (raw === null || raw === "") {
      clean[field] = null;
      continue;
    }
    const value = cleanFieldValue(field, String(raw));
    const problem = valueProblem(field, value);
    if (problem) problems.push(`${field}: ${problem}`);
    else clean[field] = value;
  }
  return problems.length ? { ok: false, problems } : { ok: true, changes: clean };
}

function valueProblem(field: ComicInfoField, value: string): string | undefined {
  if (integerFields.has(field)) {
    if (!/^-?\d{1,6}$/.test(value)) return `expected a whole number, got "${value.slice(0, 20)}"`;
    const number = Number(value);
    if (field === "Year" && (number < 1000 || number > 2999)) return "expected a year";
    if (field === "Month" && (number < 1 || number > 12)) return "expected 1–12";
    if (field === "Day" && (number < 1 || number > 31)) return "expected 1–31";
    if (number < 0 && field !== "Count" && field !== "AlternateCount") return "expected ≥ 0";
  }
  const allowed = enumFields[field];
  if (allowed && !allowed.includes(value)) return `expected one of ${allowed.join(", ")}`;
  if (field === "CommunityRating" && !/^[0-5](\.\d)?$/.test(value)) return "expected 0–5";
  return undefined;
}

/** Applies checked changes to what an archive holds (null removes). */
export function applyComicInfoChanges(
  current: ComicInfo,
  changes: Partial<Record<ComicInfoField, string | null>>,
): ComicInfo {
  const next: ComicInfo = { ...current };
  for (const [field, value] of Object.entries(changes) as [ComicInfoField, string | null][]) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}

/** The fields of `after` that differ from `before` (for a result line). */
export function changedFields(before: ComicInfo, after: ComicInfo): ComicInfoField[] {
  return comicInfoFields.filter((field) => before[field] !== after[field]);
}
