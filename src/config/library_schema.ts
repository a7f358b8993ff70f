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
  /** e.g. "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz" (fields: ComicInfo.xml's). */
  comics: layout.default(""),
  /** e.g. "~/Documents/{kind}/{date} {sender} {kind}.pdf" (kind, date, sender, title, …). */
  documents: layout.default(""),
  /** ComicVine (comics; needs a free API key) and Open Library (books and PDFs; no key). */
  comicvine: z.object({
    api_key: z.string().default(""),
    /** Own endpoint (tests, a caching proxy); empty = https://comicvine.gamespot.com/api. */
    base_url: z.string().default(""),
    /** ComicVine allows 200 requests an hour per resource. */
    requests_per_hour: z.number().int().min(1).max(200).default(180),
  }).prefault({}),
  open_library: z.object({
    /** Off by default: a PDF's title would leave the machine. */
    enabled: z.boolean().default(false),
    /** Own endpoint; empty = https://openlibrary.org. */
    base_url: z.string().default(""),
    requests_per_hour: z.number().int().min(1).max(3600).default(300),
  }).prefault({}),
});

/** `tools.comics:` bounds of the comic_info tool. */
export const comicsToolSection = z.object({
  /** A read or rewrite of one archive is stopped after this long. */
  timeout_seconds: z.number().positive().max(3600).default(60),
  /** Archives larger than this are not opened. */
  max_archive_mib: z.number().int().min(1).max(4096).default(1024),
});
