/**
 * The header line of a document-subprocess request: which job, with which options. Checked with
 * zod in the subprocess (the parent writes it, but nothing crosses a process boundary unchecked).
 */
import { z } from "zod";
import { comicInfoFields } from "../../library/comic_info.ts";
import { pdfInfoKeys } from "../../library/pdf_reader.ts";

const count = z.number().int().min(0);
const comicChanges = z.partialRecord(z.enum(comicInfoFields), z.string().max(4000).nullable());

const headerSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("pdf"),
    first: count,
    last: count,
    maxPageChars: count,
    renderImagePages: count.default(0),
  }),
  z.object({
    kind: z.literal("pdf-set-info"),
    changes: z.partialRecord(z.enum(pdfInfoKeys), z.string().max(2000).nullable()),
  }),
  z.object({ kind: z.literal("comic-read"), renderCover: z.boolean().optional() }),
  z.object({ kind: z.literal("comic-write"), changes: comicChanges }),
]);

/** One request's header. */
export type ProcessHeader = z.infer<typeof headerSchema>;

/** Parses a header line; a line without `kind` is a PDF extraction (the original protocol). */
export function parseHeader(line: string): ProcessHeader {
  const value = JSON.parse(line);
  const parsed = headerSchema.safeParse(
    value && typeof value === "object" && !("kind" in value) ? { ...value, kind: "pdf" } : value,
  );
  if (!parsed.success) throw new Error(`bad request header: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
