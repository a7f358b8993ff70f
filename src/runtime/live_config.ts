/**
 * Applying a changed radar.yaml to a running process. The runtime, the scheduler and the
 * heartbeat read these keys from the one `RadarConfig` object on every run or tick, so updating
 * them in place takes effect from the next run; everything else (model server, data directory,
 * web, watchers, tools built at start) needs a restart.
 */
import type { RadarConfig } from "../config/schema.ts";

/** Keys read afresh on every run or tick ("section.key"). */
export const liveConfigKeys: readonly string[] = [
  "radar.name",
  "radar.personality",
  "llm.temperature",
  "llm.max_tool_iterations",
  "llm.tool_budget_tokens",
  "heartbeat.enabled",
  "heartbeat.interval_minutes",
  "heartbeat.quiet_hours",
  "heartbeat.always_call_llm",
  "heartbeat.history_messages",
  "heartbeat.max_events_per_tick",
  "heartbeat.personality",
  "memory.max_conversation_context",
  "memory.max_personality_notes",
  "tools.max_result_chars",
  // The skill folders are worked out again and re-watched (`radar.applyLiveConfig`).
  "skills.dirs",
  // Standing grants are looked up on every gated call.
  "grants",
  "approvals.expire_hours",
  "approvals.notify",
  // The budget reads its limits on every check (a scheduled run, a summary, a digest).
  "budget.daily_tokens",
  "budget.task_daily_tokens",
];

type Fields = Record<string, unknown>;

function isPlainObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The keys whose effective values differ: "section.key" inside objects, else "section". */
export function changedConfigKeys(before: RadarConfig, after: RadarConfig): string[] {
  const left = before as unknown as Fields;
  const right = after as unknown as Fields;
  const changed: string[] = [];
  for (const section of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const a = left[section];
    const b = right[section];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (!isPlainObject(a) || !isPlainObject(b)) {
      changed.push(section);
      continue;
    }
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) changed.push(`${section}.${key}`);
    }
  }
  return changed;
}

/**
 * Copies the changed live keys of `next` into `target` (the running config object) and returns
 * them; the other changed keys are left for a restart.
 */
export function applyLiveConfig(target: RadarConfig, next: RadarConfig): string[] {
  const into = target as unknown as Record<string, Fields>;
  const from = next as unknown as Record<string, Fields>;
  const applied = changedConfigKeys(target, next).filter((key) => liveConfigKeys.includes(key));
  for (const key of applied) {
    const [section, name] = key.split(".");
    if (name === undefined) into[section] = structuredClone(from[section]);
    else into[section][name] = structuredClone(from[section][name]);
  }
  return applied;
}

/** The values `config` has for `keys` ("section.key", or a whole "section"), by key. */
export function configValues(
  config: RadarConfig,
  keys: readonly string[],
): Record<string, unknown> {
  const from = config as unknown as Record<string, Fields>;
  return Object.fromEntries(keys.map((key) => {
    const [section, name] = key.split(".");
    return [key, structuredClone(name === undefined ? from[section] : from[section]?.[name])];
  }));
}

/** Puts `values` (by "section.key" or "section", from `configValues`) into `target`. */
export function setConfigValues(target: RadarConfig, values: Record<string, unknown>): void {
  const into = target as unknown as Record<string, Fields>;
  for (const [key, value] of Object.entries(values)) {
    const [section, name] = key.split(".");
    if (name === undefined) into[section] = structuredClone(value) as Fields;
    else if (isPlainObject(into[section])) into[section][name] = structuredClone(value);
  }
}
