/**
 * What a heartbeat decided, and whether it was the right decision (pure): acting means calling a
 * tool that changes something (or the tool a scenario names), notifying means `notify`, asking
 * means a notification with a question or an action left for the person's yes, and anything else
 * is staying quiet. A wrong decision is a false alarm (it should have stayed quiet), a miss (it
 * stayed quiet when it should not), or otherwise wrong (notified instead of asking, …).
 */
import type { ExpectedDecision } from "./proactive_scenarios.ts";

/** What the run did, as the scorer needs it. */
export interface ObservedRun {
  /** Every tool call made (whatever came of it), with whether the tool only reads. */
  calls: ReadonlyArray<{ name: string; argumentsText: string; readOnly: boolean }>;
  /** Actions the run left for the person's yes (pending approvals). */
  approvals: number;
}

/** The kinds of verdict. */
export type DecisionVerdict = "right" | "false_alarm" | "miss" | "wrong";

/** A scenario's verdict, with the decision made in words. */
export interface ScoredDecision {
  verdict: DecisionVerdict;
  /** `quiet`, `notify`, `ask`, `act:pdf_extract`, `act:exec + ask`… */
  decision: string;
  /** Why it is not right. */
  reason?: string;
}

/** `act:TOOL`, `notify`, `ask` or `quiet`: the expectation as stored and shown. */
export function expectedLabel(expected: ExpectedDecision): string {
  return expected.decision === "act" ? `act:${expected.tool}` : expected.decision;
}

function messageOf(argumentsText: string): string {
  try {
    const value = JSON.parse(argumentsText);
    return typeof value?.message === "string" ? value.message : "";
  } catch {
    return "";
  }
}

/** What the run did, in words and parts. */
function observe(observed: ObservedRun) {
  const notes = observed.calls.filter((call) => call.name === "notify");
  const acted = [
    ...new Set(
      observed.calls.filter((call) => call.name !== "notify" && !call.readOnly).map((call) =>
        call.name
      ),
    ),
  ];
  const asked = observed.approvals > 0 ||
    notes.some((call) => /\?/.test(messageOf(call.argumentsText)));
  const told = notes.length > 0;
  const parts = [
    ...(acted.length ? [`act:${acted.join(",")}`] : []),
    ...(asked ? ["ask"] : told ? ["notify"] : []),
  ];
  const read = [
    ...new Set(observed.calls.filter((call) => call.readOnly).map((call) => call.name)),
  ];
  const decision = parts.length
    ? parts.join(" + ")
    : `quiet${read.length ? ` (read with ${read.join(",")})` : ""}`;
  return { acted, asked, told, quiet: !parts.length, decision };
}

/** Scores one run against what the scenario expects. */
export function scoreDecision(expected: ExpectedDecision, observed: ObservedRun): ScoredDecision {
  const seen = observe(observed);
  const { decision } = seen;
  const wanted = expectedLabel(expected);
  const result = (verdict: DecisionVerdict, reason?: string): ScoredDecision =>
    reason ? { verdict, decision, reason } : { verdict, decision };
  if (expected.decision === "quiet") {
    return seen.quiet
      ? result("right")
      : result("false_alarm", `should have stayed quiet, did ${decision}`);
  }
  if (expected.decision === "act") {
    if (observed.calls.some((call) => call.name === expected.tool)) return result("right");
    return seen.quiet && !observed.calls.length
      ? result("miss", `stayed quiet; expected ${wanted}`)
      : result("wrong", `expected ${wanted}, did ${decision}`);
  }
  if (seen.quiet) return result("miss", `stayed quiet; expected ${wanted}`);
  if (expected.decision === "notify") {
    return seen.told || seen.asked
      ? result("right")
      : result("wrong", `expected notify, did ${decision}`);
  }
  return seen.asked ? result("right") : result("wrong", `expected ask, did ${decision}`);
}

/** Counts of a suite run. */
export interface DecisionTotals {
  scenarios: number;
  right: number;
  falseAlarms: number;
  misses: number;
  wrong: number;
}

/** Totals over verdicts. */
export function totalsOf(verdicts: readonly DecisionVerdict[]): DecisionTotals {
  const count = (kind: DecisionVerdict) => verdicts.filter((verdict) => verdict === kind).length;
  return {
    scenarios: verdicts.length,
    right: count("right"),
    falseAlarms: count("false_alarm"),
    misses: count("miss"),
    wrong: count("wrong"),
  };
}
