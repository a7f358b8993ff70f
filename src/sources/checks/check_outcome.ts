/**
 * What one run of a check means, compared with its last stored result: the new row to store and
 * the event text (if the run is an event). Pure: no I/O, so every rule is tested directly.
 */
import type { CheckEntry } from "../../config/checks_schema.ts";
import { jsonValueText } from "./json_path.ts";
import type { CheckResultRow } from "../source_stores.ts";

/** The facts of one run the rules look at. */
export interface RunFacts {
  /** Undefined when the command timed out or could not run. */
  exitCode?: number;
  stdout: string;
  stderr: string;
  outputHash: string;
  /** Why the run failed before it could finish (time-out, cannot start). */
  problem?: string;
  at: Date;
  durationMs: number;
}

/** The row to store, the heartbeat event (if any), and whether the run failed. */
export interface CheckOutcome {
  row: CheckResultRow;
  event?: string;
  failing: boolean;
  /** Why it failed, one line (for notifications and health). */
  failure?: string;
}

/** The longest event text queued for one check run. */
export const maxEventChars = 600;

function head(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

function failureText(facts: RunFacts): string | undefined {
  if (facts.problem) return facts.problem;
  if (facts.exitCode !== 0) {
    const said = head(facts.stderr || facts.stdout, 200);
    return `exit code ${facts.exitCode}${said ? `: ${said}` : ""}`;
  }
  return undefined;
}

/** Applies the check's `event_on` rule to a run. */
export function checkOutcome(
  check: CheckEntry,
  previous: CheckResultRow | undefined,
  facts: RunFacts,
): CheckOutcome {
  const failure = failureText(facts);
  const finished = facts.problem === undefined;
  const row: CheckResultRow = {
    name: check.name,
    outputHash: finished ? facts.outputHash : previous?.outputHash,
    exitCode: finished ? facts.exitCode : previous?.exitCode,
    jsonValue: previous?.jsonValue,
    failing: failure !== undefined,
    lastRunAt: facts.at.toISOString(),
    durationMs: facts.durationMs,
    output: finished ? facts.stdout : previous?.output ?? "",
  };
  let event: string | undefined;
  if (check.event_on === "output" && finished && previous?.outputHash !== undefined) {
    if (previous.outputHash !== facts.outputHash) {
      event = `output changed: ${head(facts.stdout, 400) || "(empty)"}`;
    }
  } else if (check.event_on === "exit" && finished) {
    const before = previous?.exitCode;
    if (before === undefined ? facts.exitCode !== 0 : before !== facts.exitCode) {
      event = before === undefined
        ? `${failure}`
        : `exit code ${before} → ${facts.exitCode}${failure ? `: ${failure}` : ""}`;
    }
  } else if (check.event_on === "json" && finished && facts.exitCode === 0) {
    const json = jsonEvent(check, previous, facts.stdout);
    row.jsonValue = json.value ?? previous?.jsonValue;
    event = json.event;
    if (json.problem) {
      return { row: { ...row, failing: true }, failing: true, failure: json.problem };
    }
  }
  return {
    row,
    event: event === undefined ? undefined : head(`${check.name}: ${event}`, maxEventChars),
    failing: failure !== undefined,
    failure,
  };
}

function jsonEvent(
  check: CheckEntry,
  previous: CheckResultRow | undefined,
  stdout: string,
): { value?: string; event?: string; problem?: string } {
  let value: string;
  try {
    value = jsonValueText(stdout, check.json_path!);
  } catch {
    return { problem: `the output is not JSON: ${head(stdout, 120) || "(empty)"}` };
  }
  const before = previous?.jsonValue;
  const path = check.json_path!;
  if (check.json_expect !== undefined) {
    const expected = JSON.stringify(check.json_expect);
    const matches = value === expected;
    const matched = before === undefined ? true : before === expected;
    if (matches === matched) return { value };
    return {
      value,
      event: matches
        ? `${path} is ${expected} again`
        : `${path} is ${head(value, 200)} (expected ${expected})`,
    };
  }
  if (before === undefined || before === value) return { value };
  return { value, event: `${path} changed from ${head(before, 150)} to ${head(value, 200)}` };
}
