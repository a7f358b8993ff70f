/**
 * What a notice that leaves the machine (ntfy, a button's page) says about an approval or a change:
 * the tool, where the call would send when that place is in the user's own words or a grant, a
 * short reason by kind, the run that asked and the link — never an argument's value, a tool's
 * question (it names paths), a result or a file name. The whole call is shown only after login
 * (the dashboard, `radar approvals show`, a paired channel). Pure.
 */
import type { Destinations } from "../core/tool.ts";

/** What a notice may know of an approval. */
export interface NoticeFacts {
  tool: string;
  kind: string;
  /** Where the call would send private data that no grant covered ([]: not why it asks). */
  destinations: Destinations;
  /** Parts of the call not from the user's words (names only). */
  underived: number;
  untrustedSources: readonly string[];
  privateSources: readonly string[];
}

/** Why it asks, in a few words and without values. */
export function noticeReason(facts: NoticeFacts, named: (origin: string) => boolean): string {
  const { destinations } = facts;
  if (destinations === "anywhere") {
    return "it could send private data this run read anywhere";
  }
  if (destinations.length) {
    const shown = destinations.filter(named);
    const where = shown.length === destinations.length
      ? shown.join(", ")
      : shown.length
      ? `${shown.join(", ")} and an address the run chose`
      : "an address the run chose";
    return `it would send private data this run read to ${where}`;
  }
  if (facts.underived) return "its arguments are not all from your own words";
  return `${facts.tool} asks before it does this`;
}

/** The ask notice's lines (the title and buttons are the caller's). */
export function askLines(
  facts: NoticeFacts,
  named: (origin: string) => boolean,
  expires: string,
): string[] {
  const read = [...new Set([...facts.untrustedSources, ...facts.privateSources])];
  return [
    `${facts.tool}: ${noticeReason(facts, named)}.`,
    `From a ${facts.kind} run` + (read.length ? ` that read ${read.join(", ")}` : "") + ".",
    "The whole call is on the approval's page (log in to see it).",
    `Expires ${expires}.`,
  ];
}

/** The outcome notice's line: how it went, the details behind the link. */
export function outcomeLine(done: boolean): string {
  return done
    ? "It ran as you approved; the result is on the approval's page."
    : "It ran as you approved and failed; why is on the approval's page.";
}

/** A journaled change as a notice names it: its number, kind and tool, no path. */
export function changeLine(change: { id: number; kind: string; tool: string }): string {
  return `#${change.id} ${change.kind} by ${change.tool}`;
}
