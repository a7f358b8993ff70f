/** `checks:` — custom commands run in the exec sandbox on a schedule; what they print becomes events. */
import { z } from "zod";
import { maxEveryMinutes, minEveryMinutes } from "../core/bounds.ts";

/**
 * The longest a check or gh call may take: they run inside the daemon's tick, before the
 * heartbeat, so a slow one delays that tick's heartbeat by at most this much.
 */
const maxSourceSeconds = 600;

/** One custom check. */
export const checkEntry = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "expected a short name (letters, digits, _ -)")
    .describe("A short name (letters, digits, _ -), unique among the checks."),
  command: z.union([z.array(z.string().min(1)).min(1).max(100), z.string().min(1).max(10_000)])
    .describe(
      'An argv list (no shell), e.g. `["df", "--output=pcent", "/"]`, or one string run by `/bin/sh -c` inside the sandbox. Either way the command only ever runs inside the exec sandbox.',
    ),
  every_minutes: z.number().int().min(minEveryMinutes).max(maxEveryMinutes).default(15)
    .describe("Minutes between runs."),
  event_on: z.enum(["output", "exit", "json"]).default("output").describe(
    "What becomes an event: `output` (stdout changed; the first run is a baseline), `exit` (exit code changed, or the first run failed), `json` (the value at `json_path` in stdout changed, or stopped equalling `json_expect` when that is set).",
  ),
  json_path: z.string().regex(/^[^.\s]+(\.[^.\s]+){0,19}$/, "expected a dotted path like a.b.0")
    .optional().describe(
      "With `json`: a dotted path into stdout parsed as JSON, e.g. `status.indicator` or `items.0.state`.",
    ),
  json_expect: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional().describe(
    'With `json`: the event is "the value is no longer this" (and back), not every change.',
  ),
  notify_on_failure: z.boolean().default(false).describe(
    "Zero-model: a failing run (non-zero exit, time-out, cannot run) notifies directly through ntfy (and its recovery too); the check queues no heartbeat events and costs no model call.",
  ),
  timeout_seconds: z.number().positive().max(maxSourceSeconds).default(30).describe(
    "The whole process group is killed after this long.",
  ),
  max_output_chars: z.number().int().positive().max(1_000_000).default(16_000).describe(
    "Characters of stdout (and of stderr) kept; the rest is dropped before hashing.",
  ),
  network: z.boolean().default(false).describe("Network inside the sandbox (default: none)."),
  urgent: z.boolean().default(false).describe(
    "Its events wake the heartbeat during quiet hours.",
  ),
}).refine((check) => check.event_on !== "json" || check.json_path !== undefined, {
  message: "event_on json needs json_path",
});

/** One check as configured. */
export type CheckEntry = z.infer<typeof checkEntry>;

/** `checks:` — a list; names must be unique. */
export const checksSection = z.array(checkEntry).max(100).default([]).refine(
  (checks) => new Set(checks.map((check) => check.name)).size === checks.length,
  { message: "check names must be unique" },
).describe(
  "Custom commands `radar serve` runs in the exec sandbox on a schedule (never without it); what they print becomes heartbeat events.",
);

/** `github:` — notifications, review requests and failing CI through the `gh` CLI, when installed. */
export const githubSection = z.object({
  enabled: z.boolean().default(true).describe(
    "Off: no events and no `github` tool even when `gh` is installed.",
  ),
  check_every_minutes: z.number().int().min(minEveryMinutes).max(maxEveryMinutes).default(10)
    .describe("Minutes between checks."),
  timeout_seconds: z.number().positive().max(maxSourceSeconds).default(30).describe(
    "Seconds for each `gh` call.",
  ),
  gh_path: z.string().min(1).default("gh").describe(
    "The `gh` program (a path, or a name looked up on PATH).",
  ),
}).describe(
  "Notifications, review requests and failing CI on your PRs through the `gh` CLI, when installed.",
);
