/**
 * What a Chromium session reads from what the page and Playwright report (data from the page:
 * bounded and checked here): what a request or a form submits, why a navigation failed.
 */
import type { Request } from "playwright-core";
import {
  type HeldSubmission,
  type SessionNotes,
  type Submission,
  submissionBounds,
  type SubmittedField,
} from "../../core/browser.ts";
import { BrowserTimeoutError } from "./deadline.ts";
import { firstLine } from "../../core/errors.ts";

/** A submission the page's scripts reported (form data: checked and bounded here), or undefined. */
export function checkedSubmission(found: unknown): Submission | undefined {
  if (!found || typeof found !== "object") return undefined;
  const record = found as Record<string, unknown>;
  const url = String(record.url ?? "");
  if (!/^https?:\/\//i.test(url)) return undefined;
  const raw = Array.isArray(record.fields) ? record.fields : [];
  const fields = raw.slice(0, submissionBounds.fields).map((entry) => checkedField(entry));
  const tooLarge = Boolean(record.tooLarge) || raw.length > submissionBounds.fields ||
    fields.some((field) => field.value.length > submissionBounds.valueChars);
  return {
    method: String(record.method ?? "GET").toUpperCase().slice(0, 10),
    url: url.slice(0, 4000),
    fields: fields.map((field) => ({
      ...field,
      value: field.value.slice(0, submissionBounds.valueChars),
    })),
    ...(tooLarge ? { tooLarge } : {}),
  };
}

function checkedField(entry: unknown): SubmittedField {
  const found = (entry ?? {}) as Record<string, unknown>;
  const field: SubmittedField = {
    name: String(found.name ?? "").slice(0, 200),
    value: String(found.value ?? ""),
  };
  if (typeof found.label === "string" && found.label) field.label = found.label.slice(0, 80);
  if (found.hidden === true) field.hidden = true;
  if (found.secret === true) field.secret = true;
  return field;
}

/**
 * What a request the page sends would submit: the method, the URL (a GET's query as its fields),
 * and the body as form fields (url-encoded or multipart) or as text; binary bodies and bodies past
 * `submissionBounds` are `tooLarge`.
 */
export async function requestSubmission(request: Request, why: string): Promise<HeldSubmission> {
  const method = request.method().toUpperCase();
  const url = new URL(request.url());
  url.hash = "";
  if (method === "GET" || method === "HEAD") {
    const fields = [...url.searchParams].map(([name, value]) => ({ name, value }));
    url.search = "";
    return bounded({ method, url: url.href, fields, why });
  }
  let body: Uint8Array | null = null;
  try {
    body = request.postDataBuffer();
  } catch {
    return { method, url: url.href, why, body: "[unreadable]", tooLarge: true };
  }
  if (!body?.length) return { method, url: url.href, why, fields: [] };
  const type = request.headers()["content-type"] ?? "";
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const fields = [...new URLSearchParams(new TextDecoder().decode(body))].map((
      [name, value],
    ) => ({ name, value }));
    return bounded({ method, url: url.href, fields, why });
  }
  if (/^multipart\/form-data/i.test(type)) {
    try {
      const form = await new Response(body.slice(), { headers: { "content-type": type } })
        .formData();
      const fields = [...form].map(([name, value]) => ({
        name,
        value: typeof value === "string" ? value : "[file]",
      }));
      return bounded({ method, url: url.href, fields, why });
    } catch {
      return { method, url: url.href, why, body: "[unreadable form]", tooLarge: true };
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return {
      method,
      url: url.href,
      why,
      body: `[${body.length} bytes of binary data]`,
      tooLarge: true,
    };
  }
  return text.length > submissionBounds.bodyChars
    ? {
      method,
      url: url.href,
      why,
      body: text.slice(0, submissionBounds.bodyChars),
      tooLarge: true,
    }
    : { method, url: url.href, why, body: text };
}

/** Marks a submission with too many fields or too long a value. */
function bounded(submission: HeldSubmission): HeldSubmission {
  const fields = submission.fields ?? [];
  const tooLarge = fields.length > submissionBounds.fields ||
    fields.some((field) => field.value.length > submissionBounds.valueChars);
  return tooLarge ? { ...submission, tooLarge } : submission;
}

/** A Playwright or deadline timeout. */
export function isTimeout(error: unknown): boolean {
  return error instanceof BrowserTimeoutError ||
    (error instanceof Error && /timeout/i.test(error.name + error.message));
}

/** Why a navigation failed, in words (the guard's refusal when it was that). */
export function navigationProblem(error: unknown, notes: SessionNotes): string {
  const message = firstLine(error, 300);
  if (notes.refused.length) return `refused by the network guard: ${notes.refused.at(-1)}`;
  if (/download is starting/i.test(message)) {
    notes.downloadsRefused++;
    return "it is a file to download, not a page (the browser refuses downloads; fetch_url reads text files)";
  }
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  return code ? `the page could not be loaded (${code})` : message;
}
