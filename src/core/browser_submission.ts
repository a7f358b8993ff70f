/**
 * What a browser submission sends, compared with what the person approved. The rule, in one
 * sentence: what goes is the approved method, to the approved URL, with the approved fields —
 * the same names in the same order and the values as shown; only a hidden field's value (a form
 * token the page issues afresh on every load) may differ. Anything else is not what was approved.
 * Pure: the browser adapter reads the requests, the tool shows and stores the submissions.
 */
import type { Submission, SubmittedField } from "./browser.ts";

/**
 * How much of a submission can be shown whole: past this it is `tooLarge` and never goes (a
 * person cannot approve what the page does not let them see).
 */
export const submissionBounds = { fields: 60, valueChars: 2000, bodyChars: 8000 };

/**
 * The origin (`scheme://host[:port]`) a URL sends to; WebSocket URLs count as their http(s)
 * origin. Undefined for what reaches no server (`about:`, `data:`, `blob:`) or is no URL.
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = { "http:": "http:", "https:": "https:", "ws:": "http:", "wss:": "https:" }[
    parsed.protocol
  ];
  if (!scheme) return undefined;
  return new URL(`${scheme}//${parsed.host}/`).origin;
}

/** True when `actual` sends exactly what `approved` showed (see the module comment). */
export function sameSubmission(approved: Submission, actual: Submission): boolean {
  return submissionChange(approved, actual) === undefined;
}

/**
 * Why `actual` is not the approved submission, in a few words ("it now sends POST to
 * https://x.example/steal, not to https://bank.example/renew"), or undefined when it is.
 */
export function submissionChange(approved: Submission, actual: Submission): string | undefined {
  if (actual.tooLarge || approved.tooLarge) return "it sends more than can be shown";
  const method = actual.method.toUpperCase();
  if (method !== approved.method.toUpperCase() || !sameUrl(approved.url, actual.url)) {
    return `it now sends ${method} to ${actual.url}, not ${approved.method.toUpperCase()} to ${approved.url}`;
  }
  if (approved.body !== undefined || actual.body !== undefined) {
    return approved.body === actual.body ? undefined : "it now sends a different body";
  }
  return fieldsChange(approved.fields ?? [], actual.fields ?? []);
}

function fieldsChange(
  approved: readonly SubmittedField[],
  actual: readonly SubmittedField[],
): string | undefined {
  const names = (fields: readonly SubmittedField[]) => fields.map((field) => field.name);
  if (names(approved).join("\n") !== names(actual).join("\n")) {
    return `it now sends the fields ${quoteNames(names(actual))}, not ${
      quoteNames(names(approved))
    }`;
  }
  const changed = approved.find((field, index) =>
    !field.hidden && field.value !== actual[index].value
  );
  return changed
    ? `the field ${JSON.stringify(changed.label || changed.name)} now holds another value`
    : undefined;
}

function quoteNames(names: string[]): string {
  return names.length ? names.map((name) => JSON.stringify(name)).join(", ") : "no fields";
}

/** Two absolute URLs that name the same resource (fragments never leave the browser). */
function sameUrl(first: string, second: string): boolean {
  try {
    const [a, b] = [new URL(first), new URL(second)];
    a.hash = "";
    b.hash = "";
    return a.href === b.href;
  } catch {
    return false;
  }
}
