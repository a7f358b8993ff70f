/**
 * What the `browser` tool shows the model and the user: a page as text with its fields, buttons
 * and links by ref, the session's notes (refused addresses, closed popups, dialogs), and the
 * question a submission asks. The page's words are untrusted data: the agent loop wraps the
 * whole result, and the question quotes them as the page's, never as Radar's.
 */
import {
  type FilledField,
  type HeldSubmission,
  originOf,
  type PageControl,
  type PageView,
  type SessionNotes,
  type SubmittedField,
} from "../core/browser.ts";
import { textForModel } from "../core/untrusted_text.ts";
import { textForTerminal } from "../core/terminal_text.ts";

/** A page as the model reads it. */
export function pageText(view: PageView, notes?: SessionNotes): string {
  const lines = [`Page: ${view.url}`];
  if (view.title) lines.push(`Title: ${view.title}`);
  if (view.loading) {
    lines.push("[still loading when the call's time was up: this is what it shows]");
  }
  lines.push("", view.text || "[no text]");
  if (view.textCut) lines.push(`[${view.textCut} more characters not shown (browser.max_chars)]`);
  const controls = (kind: PageControl["kind"]) =>
    view.controls.filter((control) => control.kind === kind);
  const section = (title: string, items: string[]) => {
    if (items.length) lines.push("", title, ...items);
  };
  section("Fields (fill: values {ref: text}):", controls("field").map(fieldLine));
  section(
    "Buttons (click: ref; * submits, the user is asked first):",
    controls("button").map((button) =>
      `${button.ref}${button.submits ? " *" : ""} ${quote(button.label)}`
    ),
  );
  section(
    "Links:",
    controls("link").map((link) => `${link.ref} ${quote(link.label)} ${link.href ?? ""}`),
  );
  const noted = notesText(notes);
  if (noted) lines.push("", noted);
  return lines.join("\n");
}

function fieldLine(field: PageControl): string {
  const parts = [field.ref, field.type, quote(field.label)];
  if (field.required) parts.push("required");
  if (field.options?.length) parts.push(`(${field.options.join(" | ")})`);
  if (field.value !== undefined) parts.push(`= ${quote(field.value)}`);
  return parts.join(" ");
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The session's notes in one or two lines (empty when nothing happened). */
export function notesText(notes?: SessionNotes): string {
  if (!notes) return "";
  const lines: string[] = [];
  if (notes.refused.length) {
    lines.push(`Refused by the network guard: ${notes.refused.slice(0, 5).join("; ")}`);
  }
  if (notes.unsent.length) {
    lines.push(`Not sent (the page tried on its own): ${notes.unsent.slice(0, 3).join("; ")}`);
  }
  if (notes.fenced.length) {
    lines.push(
      `Not sent (data typed here may go only to ${notes.fence.join(", ") || "no site"}): ${
        notes.fenced.slice(0, 5).join("; ")
      }${notes.fenced.length > 5 ? ` and ${notes.fenced.length - 5} more` : ""}`,
    );
  }
  const other: string[] = [];
  if (notes.popupsClosed) other.push(`closed ${notes.popupsClosed} popup window(s)`);
  if (notes.downloadsRefused) other.push(`refused ${notes.downloadsRefused} download(s)`);
  if (notes.dialogs.length) {
    other.push(`dismissed dialog(s): ${notes.dialogs.slice(0, 3).map(quote).join(", ")}`);
  }
  if (other.length) lines.push(`Browser: ${other.join("; ")}.`);
  return lines.join("\n");
}

/**
 * What a submission sends, for the person's yes, whole: for each request the method and the
 * absolute target (its origin named when it is another site than the page's), then every field
 * (hidden ones marked, passwords masked) or the body. Nothing is cut: a page that sends more than
 * can be shown is refused before it gets here (`Submission.tooLarge`).
 */
export function submissionSummary(
  page: string,
  control: string | undefined,
  held: readonly HeldSubmission[],
): string {
  const lines = [`Submit on ${page}${control ? ` (clicking ${quote(control)})` : ""}`];
  const pageOrigin = originOf(page);
  for (const submission of held) {
    const origin = originOf(submission.url);
    const elsewhere = origin && origin !== pageOrigin
      ? ` — to ${origin}, another site than the page's`
      : "";
    lines.push(`  sends ${submission.method} ${submission.url} (${submission.why})${elsewhere}`);
    for (const field of submission.fields ?? []) lines.push(`    ${fieldText(field)}`);
    if (submission.body !== undefined) {
      lines.push("    body:", ...submission.body.split("\n").map((line) => `      ${line}`));
    } else if (!submission.fields?.length) lines.push("    (no data)");
  }
  // Shown to a person (a terminal, the dashboard) and to the model: clean for both.
  return textForTerminal(textForModel(lines.join("\n")));
}

/** A field as people read it: `Card number: 2231 8841`, `PIN: ••••••`, `token (hidden): x`. */
function fieldText(field: SubmittedField): string {
  if (field.hidden) return `${field.name} (hidden): ${field.value}`;
  const secret = field.secret || secretName.test(field.name);
  return `${field.label || field.name}: ${secret ? "••••••" : field.value}`;
}

/** Names of fields whose values are masked when the page did not say they are passwords. */
const secretName = /pass(word)?|\bpin\b|cvc|cvv/i;

/** A submission's fields labelled as the tool filled them (a request only knows the names). */
export function labelledFields(
  held: readonly HeldSubmission[],
  filled: readonly FilledField[],
): HeldSubmission[] {
  const byName = new Map(filled.flatMap((field) => field.name ? [[field.name, field]] : []));
  return held.map((submission) => ({
    ...submission,
    ...(submission.fields
      ? {
        fields: submission.fields.map((field) => {
          const known = byName.get(field.name);
          if (!known || field.label || field.hidden) return field;
          return {
            ...field,
            ...(known.label ? { label: known.label } : {}),
            ...(known.type === "password" ? { secret: true } : {}),
          };
        }),
      }
      : {}),
  }));
}
