/**
 * ComicVine's search API (https://comicvine.gamespot.com/api/documentation): URL building and the
 * answer checked field by field. The answer is untrusted data: strings are cut and cleaned, and
 * only the fields below are kept.
 *
 * `GET {base}/search/?api_key=KEY&format=json&resources=issue&query=Saga%2054&field_list=…` →
 * `{error: "OK", status_code: 1, number_of_total_results, results: [{name, issue_number,
 * volume: {id, name}, cover_date, site_detail_url, …}]}`; errors keep the envelope with another
 * status_code (100 invalid key, 107 rate limit exceeded).
 */
import { z } from "zod";
import { lazyValue } from "../core/zod_issues.ts";
import { cleanFieldValue, type ComicInfo } from "./comic_info.ts";

/** ComicVine's answers, checked; built on the first lookup, not while Radar starts. */
const schemas = lazyValue(() => {
  const text = z.string().max(10_000).nullish();

  const issueSchema = z.object({
    id: z.number().int().optional(),
    name: text,
    issue_number: text,
    cover_date: text,
    store_date: text,
    site_detail_url: text,
    resource_type: text,
    volume: z.object({ id: z.number().int().optional(), name: text }).nullish(),
  });

  const answerSchema = z.object({
    error: z.string().max(200),
    status_code: z.number().int(),
    number_of_total_results: z.number().int().optional(),
    results: z.union([z.array(z.unknown()).max(100), z.object({}).passthrough()]).optional(),
  });
  return { issueSchema, answerSchema };
});

/** The search URL for issues matching `query`. */
export function comicVineSearchUrl(base: string, apiKey: string, query: string): URL {
  const url = new URL(`${base.replace(/\/+$/, "")}/search/`);
  url.searchParams.set("api_key", apiKey);
  url.searchParams.set("format", "json");
  url.searchParams.set("resources", "issue");
  url.searchParams.set("query", query.slice(0, 200));
  url.searchParams.set("limit", "10");
  url.searchParams.set(
    "field_list",
    "id,name,issue_number,cover_date,store_date,site_detail_url,resource_type,volume",
  );
  return url;
}

/** One issue ComicVine found, as ComicInfo fields. */
export interface ComicVineIssue {
  info: ComicInfo;
  id?: number;
}

/** The issues in an answer, or the error ComicVine named. */
export function comicVineIssues(json: unknown): { issues: ComicVineIssue[] } | { error: string } {
  const answer = schemas().answerSchema.safeParse(json);
  if (!answer.success) return { error: "ComicVine answered in an unexpected shape" };
  if (answer.data.status_code !== 1) {
    const why = answer.data.status_code === 107
      ? "its rate limit was exceeded; try again in an hour"
      : answer.data.error.slice(0, 120);
    return { error: `ComicVine refused (${answer.data.status_code}: ${why})` };
  }
  const results = Array.isArray(answer.data.results) ? answer.data.results : [];
  const issues: ComicVineIssue[] = [];
  for (const item of results) {
    const parsed = schemas().issueSchema.safeParse(item);
    if (!parsed.success) continue;
    const issue = parsed.data;
    const info: ComicInfo = {};
    const set = (field: keyof ComicInfo, value: string | null | undefined) => {
      const clean = value ? cleanFieldValue(field, value) : "";
      if (clean) info[field] = clean;
    };
    set("Series", issue.volume?.name);
    set("Number", issue.issue_number);
    set("Title", issue.name);
    const date = /^(\d{4})-(\d{2})/.exec(issue.cover_date ?? issue.store_date ?? "");
    if (date) {
      info.Year = date[1];
      if (date[2] !== "00") info.Month = String(Number(date[2]));
    }
    if (issue.site_detail_url && /^https:\/\//.test(issue.site_detail_url)) {
      set("Web", issue.site_detail_url);
    }
    issues.push({ info, id: issue.id });
  }
  return { issues };
}
