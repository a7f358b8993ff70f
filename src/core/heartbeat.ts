/** Heartbeat decisions and the heartbeat message: pure functions of time, config and events. */
import { isQuietTime, type QuietHours } from "./notifier.ts";
import { formatLocalTime } from "./zoned_time.ts";
import { untrustedNotice, wrapUntrusted } from "./untrusted_text.ts";

/** One event waiting in the queue (a new file, a changed page, a failing monitor…). */
export interface PendingEvent {
  id: number;
  /** Where it came from, e.g. "watcher ~/Downloads" or "monitor Prices". Groups the message. */
  source: string;
  /** What happened, e.g. "new_pdf_detected" or "page_changed". */
  kind: string;
  /** One line. */
  summary: string;
  /** Optional extra text (a short diff), bounded when rendered. */
  detail?: string;
  /** Urgent events wake the heartbeat (and may notify) during quiet hours. */
  urgent: boolean;
  createdAt: string;
}

/** What a tick should do. */
export type HeartbeatDecision =
  | { action: "skip"; reason: string }
  | { action: "run"; events: PendingEvent[] };

/** Inputs of the heartbeat decision. */
export interface HeartbeatDecisionInput {
  now: Date;
  timeZone?: string;
  quietHours: QuietHours;
  pending: PendingEvent[];
  alwaysCallLlm: boolean;
  /** A person asked for this tick (`radar heartbeat`): quiet hours do not apply. */
  manual: boolean;
}

/**
 * Decides whether a tick calls the model. Nothing pending skips, so an idle day costs no tokens,
 * unless `alwaysCallLlm` is set; it is decided first, so an idle tick reads no local time (the
 * first zone conversion of a process touches ~1 MB of Deno's time-zone code and data). Quiet
 * hours skip unless an urgent event is pending (then only the urgent events are shown; the rest
 * wait for morning).
 */
export function decideHeartbeat(input: HeartbeatDecisionInput): HeartbeatDecision {
  if (!input.pending.length && !input.alwaysCallLlm) {
    return { action: "skip", reason: "nothing pending" };
  }
  const quiet = !input.manual && isQuietTime(input.quietHours, input.now, input.timeZone);
  if (quiet) {
    const urgent = input.pending.filter((event) => event.urgent);
    if (!urgent.length) return { action: "skip", reason: "quiet hours" };
    return { action: "run", events: urgent };
  }
  return { action: "run", events: input.pending };
}

/** True when a scheduled heartbeat is due: never ran, or `intervalMinutes` have passed. */
export function isHeartbeatDue(
  lastScheduledAt: Date | undefined,
  now: Date,
  intervalMinutes: number,
): boolean {
  if (!lastScheduledAt) return true;
  // Cron ticks jitter by a few seconds; half a minute of slack keeps a 15-minute rhythm.
  return now.getTime() - lastScheduledAt.getTime() >= intervalMinutes * 60_000 - 30_000;
}

/** When the next scheduled heartbeat is expected. */
export function nextHeartbeatAt(
  lastScheduledAt: Date | undefined,
  now: Date,
  intervalMinutes: number,
): Date {
  if (!lastScheduledAt) return now;
  const next = new Date(lastScheduledAt.getTime() + intervalMinutes * 60_000);
  return next < now ? now : next;
}

/** Bounds of the rendered event list. */
export interface MessageBounds {
  /** Lines shown per source before "… and N more". */
  perSource: number;
  /** Characters of an event's detail. */
  detailChars: number;
  /** Characters of the whole event section. */
  totalChars: number;
}

/** Default bounds: small enough for a small model's context. */
export const defaultMessageBounds: MessageBounds = {
  perSource: 10,
  detailChars: 1200,
  totalChars: 6000,
};

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Renders events grouped by source, oldest first, within the bounds. */
export function formatEvents(
  events: readonly PendingEvent[],
  bounds: MessageBounds = defaultMessageBounds,
): string {
  const groups = Map.groupBy(events, (event) => event.source);
  const lines: string[] = [];
  let used = 0;
  let omitted = 0;
  for (const [source, group] of groups) {
    const block: string[] = [`${oneLine(source, 120)} (${group.length}):`];
    for (const event of group.slice(0, bounds.perSource)) {
      block.push(
        `- ${event.urgent ? "[urgent] " : ""}${oneLine(event.kind, 60)}: ${
          oneLine(event.summary, 300)
        }`,
      );
      if (event.detail?.trim()) {
        const detail = event.detail.length > bounds.detailChars
          ? `${event.detail.slice(0, bounds.detailChars)}\n[…detail cut]`
          : event.detail;
        block.push(...detail.trimEnd().split("\n").map((line) => `    ${line}`));
      }
    }
    if (group.length > bounds.perSource) {
      block.push(`- … and ${group.length - bounds.perSource} more from ${oneLine(source, 120)}`);
    }
    const text = block.join("\n");
    if (used + text.length > bounds.totalChars && lines.length) {
      omitted += group.length;
      continue;
    }
    lines.push(text);
    used += text.length;
  }
  if (omitted) lines.push(`(${omitted} more events not shown)`);
  return lines.join("\n");
}

/** Everything the heartbeat message is built from. */
export interface HeartbeatMessageInput {
  now: Date;
  timeZone?: string;
  events: readonly PendingEvent[];
  /** Events still queued beyond this tick's limit. */
  morePending?: number;
  bounds?: MessageBounds;
  /** The untrusted-text marker id (random by default; tests pin it). */
  markerId?: string;
  /**
   * The marker's source, which labels the run that reads it (`eventsSource`): "events" (private:
   * files, mail, calendars…) unless every event is a web page's.
   */
  source?: string;
}

/**
 * The source the events are marked with: "web events" when every one is a URL monitor's and
 * monitors reach only the public web (a run reading them is not private), else "events".
 */
export function eventsSource(events: readonly PendingEvent[], privateAddresses: boolean): string {
  const web = !privateAddresses && events.length > 0 &&
    events.every((event) => event.source.startsWith("monitor "));
  return web ? "web events" : "events";
}

/**
 * The user message of a heartbeat, shaped like the product spec. Event text (sources, summaries,
 * diffs, file names) comes from pages and files: it is wrapped as untrusted data, so a page that
 * repeats Radar's own sentences stays inside the markers.
 */
export function buildHeartbeatMessage(input: HeartbeatMessageInput): string {
  const time = formatLocalTime(input.now, input.timeZone);
  const changes = input.events.length
    ? `Since the last check:\n${
      wrapUntrusted(formatEvents(input.events, input.bounds), {
        source: input.source ?? "events",
        id: input.markerId,
      })
    }`
    : "Since the last check: nothing new.";
  const more = input.morePending
    ? `\n(${input.morePending} further events are queued for the next check.)`
    : "";
  const notice = input.events.length ? `\n${untrustedNotice}` : "";
  return `It is ${time}. ${changes}${more}${notice}\nCheck if anything needs attention.`;
}
