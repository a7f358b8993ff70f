/**
 * What a Chromium session says in words, from what the page and Playwright report (data from the
 * page: bounded and checked here): request bodies, form data, why a navigation failed.
 */
import type { Request } from "playwright-core";
import type { PageControl, SessionNotes } from "../../core/browser.ts";
import { BrowserTimeoutError } from "./deadline.ts";
import { firstLine } from "../../core/first_line.ts";

/** The most characters of a held submission's data kept. */
export const maxDataChars = 2000;

/** The form data the page's inspect script reported, checked and bounded. */
export function checkedFormData(found: unknown): PageControl["formData"] {
  if (!Array.isArray(found)) return undefined;
  return found.slice(0, 40).map((entry) => ({
    label: String(entry?.label ?? "").slice(0, 80),
    value: String(entry?.value ?? "").slice(0, 200),
  }));
}

/** A request's body as `name=value` lines (forms) or text, bounded; passwords are not known here. */
export function describeBody(request: Request): string {
  let body: string | null = null;
  try {
    body = request.postData();
  } catch {
    return "[binary data]";
  }
  if (!body) return "";
  const type = request.headers()["content-type"] ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    const lines = [...new URLSearchParams(body)].map(([name, value]) =>
      `${name}=${/pass(word)?|pin|cvc|cvv/i.test(name) ? "••••••" : value.slice(0, 200)}`
    );
    return lines.join("\n").slice(0, maxDataChars);
  }
  return body.slice(0, maxDataChars);
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
