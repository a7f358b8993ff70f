/** `library:` where filed PDFs and comics go, and the lookup services that name them. */
import { z } from "zod";

const layout = z.string().max(500).refine(
  (value) => value === "" || /\{[A-Za-z]/.test(value),
  'expected a path template with {Field} placeholders, e.g. "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz"',
).refine(
  (value) => !value.split("/").includes(".."),
  "a layout may not contain .. (it must stay in its folder)",
);

/** `library:` layouts (empty: not set) and metadata lookups. */
export const librarySection = z.object({
  comics: layout.default("").describe(
    'Where comics go, e.g. `"~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz"` (fields: ComicInfo.xml\'s); empty: not set.',
  ),
  documents: layout.default("").describe(
    'Where PDFs go, e.g. `"~/Documents/{kind}/{date} {sender} {kind}.pdf"` (kind, date, sender, title, author, subject, keywords); empty: not set.',
  ),
  comicvine: z.object({
    api_key: z.string().default("").describe(
      "A free API key from comicvine.gamespot.com/api; empty: no comic lookups.",
    ),
    base_url: z.string().default("").describe(
      "Own endpoint (tests, a caching proxy); empty: `https://comicvine.gamespot.com/api`.",
    ),
    requests_per_hour: z.number().int().min(1).max(200).default(180).describe(
      "ComicVine allows 200 requests an hour per resource.",
    ),
  }).prefault({}).describe("Comic lookups when an archive does not say what it is."),
  open_library: z.object({
    enabled: z.boolean().default(false).describe(
      "Off by default: a PDF's title would leave the machine.",
    ),
    base_url: z.string().default("").describe("Own endpoint; empty: `https://openlibrary.org`."),
    requests_per_hour: z.number().int().min(1).max(3600).default(300).describe(
      "The most lookups an hour.",
    ),
  }).prefault({}).describe("Book lookups for PDFs that do not name an author; no key."),
}).describe(
  "Where filed comics and PDFs go: path templates whose `{Field}` is filled from the file's metadata (`{Number:000}` pads to 3 digits; a field inside `( )` or `[ ]`, or written `{Field?}`, may be missing).",
);

/** `tools.comics:` bounds of the comic_info tool. */
export const comicsToolSection = z.object({
  timeout_seconds: z.number().positive().max(3600).default(60).describe(
    "A read or rewrite of one archive is stopped after this long.",
  ),
  max_archive_mib: z.number().int().min(1).max(4096).default(1024).describe(
    "Archives larger than this are not opened.",
  ),
}).describe("The `comic_info` tool (CBZ, CBR; read in a killable subprocess).");
