/**
 * What the `browser` tool does with a submission: a click holds whatever it submits, the person
 * (or a grant, or a pending approval) is shown exactly what was held — method, target, every
 * field — and only that goes; an approval's replay sends exactly what it showed or nothing.
 */
import {
  type BrowserSession,
  type HeldSubmission,
  type PageControl,
  type PageView,
  type Submission,
  submissionBounds,
  submissionChange,
} from "../core/browser.ts";
import { failed, refused, type ToolContext, type ToolOutput } from "../core/tool.ts";
import type { ToolResult } from "../core/tool.ts";
import type { LiveSession } from "./browser_sessions.ts";
import { labelledFields, pageText, submissionSummary } from "./browser_text.ts";

/** One browser call's session and run (the arguments are the caller's). */
export interface BrowserCall {
  /** The session's key in `BrowserSessions`. */
  key: string;
  live: LiveSession;
  context: ToolContext;
  /** The call's signal (its time limit included). */
  signal: AbortSignal;
}

/**
 * Clicks a control with every submission it makes held (a control whose words say buy, pay,
 * delete… holds its GET navigations too), then asks about exactly what was held.
 */
export async function click(call: BrowserCall & { ref: string }): Promise<ToolOutput> {
  const { live, ref, signal } = call;
  const { session } = live;
  const control = await session.inspect(ref, signal);
  const page = session.url();
  const outcome = await session.click(ref, signal, { holdNavigations: control.submits });
  if (!outcome.held.length) return pageText(outcome.view!, session.takeNotes());
  return await decideHeld(call, page, control, outcome.held);
}

/**
 * Asks about held submissions — the person, a grant, or a pending approval of exactly what was
 * shown — then lets exactly those go, or drops them. What the page sends next instead (a script
 * that answers a submission with another) is asked about in turn, twice at most.
 */
async function decideHeld(
  call: BrowserCall,
  page: string,
  control: PageControl,
  first: HeldSubmission[],
): Promise<ToolOutput> {
  const { live, context, signal } = call;
  let held = first;
  for (let round = 0; round < 3; round++) {
    held = labelledFields(held, [...live.filled.values()]);
    const summary = submissionSummary(page, control.label, held);
    if (held.some((submission) => submission.tooLarge)) {
      await live.session.drop();
      return refused(
        `Not submitted: the page sends more than can be shown for a yes (over ` +
          `${submissionBounds.fields} fields, or a value or body too long).\n${summary}`,
      );
    }
    const answer = await askToSubmit(context, live.session, summary, {
      ...replayArguments(live, page, control.selector),
      target: held[0].url,
      sends: held,
    });
    if (answer) {
      await live.session.drop();
      return answer;
    }
    const outcome = await live.session.release(held, signal);
    live.filled.clear();
    if (!outcome.held.length) return submitted(outcome.view!, live.session, outcome.sent);
    held = outcome.held;
  }
  await live.session.drop();
  return refused("Not submitted further: the page kept sending more after each yes.");
}

/**
 * The self-contained submission a pending approval stores and a grant matches: the page, the
 * fields filled on it (by selector) and the control clicked (the caller adds what it sends).
 */
function replayArguments(
  live: LiveSession,
  page: string,
  selector: string,
): Record<string, unknown> {
  const values = live.filledOn === page
    ? Object.fromEntries([...live.filled.values()].map((field) => [field.selector, field.value]))
    : {};
  return { action: "submit", url: page, values, ref: selector };
}

/**
 * Asks the person (or a grant, or a pending approval) whether to submit; undefined means yes,
 * otherwise the result to return (nothing was sent).
 */
async function askToSubmit(
  context: ToolContext,
  session: BrowserSession,
  summary: string,
  replay: Record<string, unknown>,
): Promise<ToolResult | undefined> {
  if (!context.confirm) {
    return refused(
      `Not submitted: submitting needs the user's yes, and nobody can answer in a ${context.kind} ` +
        `run.\n${summary}\nTell the user what you would submit instead.`,
    );
  }
  const yes = await context.confirm(`${summary}\nSubmit it?`, {
    arguments: replay,
    summary,
    why: `submitting on ${hostOf(String(replay.url))} needs your yes`,
    screenshot: () => session.screenshot(AbortSignal.timeout(5_000)),
  });
  if (yes) return undefined;
  return refused(
    context.interactive
      ? `The user said no: nothing was submitted. Do not retry; ask what to do instead.\n${summary}`
      : `Not submitted: it needs the user's yes.\n${summary}`,
  );
}

/**
 * Sends what an approval showed, exactly: refused before the click when the form now sends
 * elsewhere or other fields, and after it when the page sent anything else instead.
 */
export async function sendApproved(
  call: BrowserCall,
  page: string,
  control: PageControl,
  approved: Array<Submission & { why?: string }>,
): Promise<ToolOutput> {
  const { live, signal } = call;
  const { session } = live;
  if (!approved.length) {
    return refused(
      "Not submitted: this approval does not say where the submission goes (it was stored " +
        "before Radar showed that); ask for it again.",
    );
  }
  const fromForm = approved.find((submission) => submission.why === "form submit");
  const change = fromForm && control.submission &&
    submissionChange(fromForm, control.submission);
  if (change) {
    return refused(`Not submitted: the form on ${page} changed since it was approved: ${change}.`);
  }
  const outcome = await session.click(control.selector, signal, {
    approved,
    holdNavigations: control.submits,
  });
  if (outcome.sent.length) {
    await session.drop();
    return submitted(outcome.view ?? await session.view(signal), session, outcome.sent);
  }
  const instead = outcome.held[0];
  await session.drop();
  const notes = session.takeNotes();
  if (instead) {
    const why = submissionChange(approved[0], instead);
    return refused(
      `Not submitted: the page now sends ${instead.method} ${instead.url} instead of what was ` +
        `approved (${why}); nothing was sent.`,
    );
  }
  const fenced = notes.fenced.length ? ` (refused: ${notes.fenced.slice(0, 3).join("; ")})` : "";
  return failed(`Not submitted: the page did not send what was approved${fenced}.`);
}

export function submitted(
  view: PageView,
  session: BrowserSession,
  sent: readonly Submission[],
): string {
  const went = sent.map((submission) => `${submission.method} ${submission.url}`).join(", ");
  return `Submitted.${went ? ` Sent ${went}.` : ""} The page now:\n${
    pageText(view, session.takeNotes())
  }`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the page";
  }
}
