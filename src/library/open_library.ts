/**
 * Open Library's search API (https://openlibrary.org/dev/docs/api/search), no key:
 * `GET {base}/search.json?q=…&fields=…&limit=5` → `{numFound, start, docs: [{key, title,
 * author_name: [], first_publish_year, isbn: [], publisher: []}]}`. The answer is untrusted data,
 * checked field by field and cut.
 */
import { z } from "zod";
import { lazyValue } from "../core/zod_issues.ts";
import { oneLine } from "../adapters/network/guarded_get.ts";

/** Open Library's answers, checked; built on the first lookup, not while Radar starts. */
const schemas = lazyValue(() => {
  const list = z.array(z.string().max(500)).max(1000).optional();

  const docSchema = z.object({
    key: z.string().max(200).optional(),
    title: z.string().max(2000).optional(),
    author_name: list,
    first_publish_year: z.number().int().optional(),
    isbn: list,
    publisher: list,
  });

  const answerSchema = z.object({
    numFound: z.number().int().min(0),
    docs: z.array(z.unknown()).max(100),
  });
  return { docSchema, answerSchema };
});

/** One book Open Library found. */
export interface OpenLibraryBook {
  title: string;
  authors: string[];
  year?: number;
  isbn?: string;
  publisher?: string;
  url?: string;
}

/** The search URL for `query`. */
export function openLibrarySearchUrl(base: string, query: string): URL {
  const url = new URL(`${base.replace(/\/+$/, "")}/search.json`);
  url.searchParams.set("q", query.slice(0, 200));
  url.searchParams.set("fields", "key,title,author_name,first_publish_year,isbn,publisher");
  url.searchParams.set("limit", "5");
  return url;
}

/** The books in an answer (at most 5), or undefined for an unexpected shape. */
export function openLibraryBooks(json: unknown, base: string): OpenLibraryBook[] | undefined {
  const answer = schemas().answerSchema.safeParse(json);
  if (!answer.success) return undefined;
  const books: OpenLibraryBook[] = [];
  for (const item of answer.data.docs.slice(0, 5)) {
    const parsed = schemas().docSchema.safeParse(item);
    if (!parsed.success || !parsed.data.title) continue;
    const doc = parsed.data;
    books.push({
      title: oneLine(doc.title!, 200),
      authors: (doc.author_name ?? []).slice(0, 3).map((name) => oneLine(name, 100)),
      year: doc.first_publish_year,
      isbn: doc.isbn?.[0] && /^[\dXx-]{10,17}$/.test(doc.isbn[0]) ? doc.isbn[0] : undefined,
      publisher: doc.publisher?.[0] ? oneLine(doc.publisher[0], 100) : undefined,
      url: doc.key && /^\/works\/OL\d+W$/.test(doc.key)
        ? `${base.replace(/\/+$/, "")}${doc.key}`
        : undefined,
    });
  }
  return books;
}
