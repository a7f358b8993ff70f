/**
 * What the HTML query child is asked and answers: plain data, one JSON line each way. A query picks
 * elements with a CSS selector and reads named fields of each (its outer HTML, its text or an
 * attribute, of the element or of its first descendant matching `within`).
 */
import { z } from "zod";
import { lazyValue } from "../../core/zod_issues.ts";

/** What to read of an element. */
export type HtmlRead = "html" | "text" | { attribute: string };

/** One field of each picked element. */
export interface HtmlField {
  /** Read the first descendant matching this selector instead (none: the field is null). */
  within?: string;
  read: HtmlRead;
}

/** One question about a page. */
export interface HtmlQuery {
  select: string;
  fields: Record<string, HtmlField>;
  /** At most this many elements (default and ceiling: `maxMatches`). */
  limit?: number;
}

/** One picked element's fields (null: the `within` element or the attribute is missing). */
export type HtmlMatch = Record<string, string | null>;

/** The answer: per query its matches; or a selector refused; or why there is no answer. */
export type HtmlQueryResult =
  | { status: "ok"; matches: HtmlMatch[][]; cut: boolean }
  | { status: "invalid"; message: string }
  | { status: "failed"; message: string };

/** Elements one query picks at most. */
export const maxMatches = 5_000;

/** Characters of all fields together at most; past it the answer is cut (`cut: true`). */
export const maxAnswerChars = 4_000_000;

/** The child's answer line as the parent accepts it (built on the first answer). */
export const resultSchema = lazyValue((): z.ZodType<HtmlQueryResult> =>
  z.discriminatedUnion("status", [
    z.object({
      status: z.literal("ok"),
      matches: z.array(z.array(z.record(z.string(), z.string().nullable()))),
      cut: z.boolean(),
    }),
    z.object({ status: z.literal("invalid"), message: z.string().max(1000) }),
    z.object({ status: z.literal("failed"), message: z.string().max(1000) }),
  ])
);
