/**
 * What the `browser` tool shows the model and the user: a page as text with its fields, buttons
 * and links by ref, the session's notes (refused addresses, closed popups, dialogs), and the
 * question a submission asks. The page's words are untrusted data: the agent loop wraps the
 * whole result, and the question quotes them as the page's, never as Radar's.
 */
import type {
  FilledField,
  HeldSubmission,
  PageControl,
  PageView,
  SessionNotes,
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
 * What a submission would send, for the person's yes: the form's own data when the control's
 * form is known (hidden fields included), else the values as filled; passwords hidden.
 */
export function submissionSummary(
  page: string,
  control: string | undefined,
  filled: readonly FilledField[],
  held: readonly HeldSubmission[],
  formData: readonly { label: string; value: string }[] = [],
): string {
  const lines = [`Submit on ${page}${control ? ` (clicking ${quote(control)})` : ""}`];
  for (const submission of held.slice(0, 3)) {
    lines.push(`  sends ${submission.method} ${submission.url} (${submission.why})`);
  }
  if (formData.length) {
    lines.push("  fields:");
    for (const entry of formData.slice(0, 20)) {
      lines.push(`    ${entry.label}: ${entry.value.slice(0, 120)}`);
    }
    if (formData.length > 20) lines.push(`    … and ${formData.length - 20} more`);
  } else if (filled.length) {
    lines.push("  fields:");
    for (const field of filled.slice(0, 20)) {
      const value = field.type === "password" ? "••••••" : field.value;
      lines.push(`    ${field.label || field.selector}: ${value.slice(0, 120)}`);
    }
  } else {
    const data = held.map((submission) => submission.data).filter(Boolean).join("\n");
    if (data) lines.push("  data:", ...data.split("\n").slice(0, 20).map((line) => `    ${line}`));
  }
  // Shown to a person (a terminal, the dashboard) and to the model: clean for both.
  return textForTerminal(textForModel(lines.join("\n")));
}
