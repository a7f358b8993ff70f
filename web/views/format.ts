/** Small pure formatters shared by the views. */
import { formatStoredTime } from "../../src/core/zoned_time.ts";

/**
 * A stored ISO time as a person reads it in `timeZone` (`radar.timezone`; the machine's zone
 * without one): "2026-03-01 10:15", with `zone` "2026-03-01 10:15 UTC+01:00" (where a reader
 * could take it for another zone's time). Empty stays empty; text that is not a time is shown as
 * stored, cut short.
 */
export function formatTime(
  iso: string | undefined,
  timeZone: string | undefined,
  options: { zone?: boolean } = {},
): string {
  return iso ? formatStoredTime(iso, timeZone, options) : "";
}

/** "820 ms", "3.4 s", "2 min 5 s". */
export function formatDuration(milliseconds: number | undefined): string {
  if (milliseconds === undefined || !Number.isFinite(milliseconds)) return "";
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** Cuts text to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Pretty-prints a JSON arguments text when it parses; otherwise returns it as sent. */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
