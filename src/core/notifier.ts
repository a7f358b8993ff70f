/**
 * The Notifier port: one push notification to the user (ntfy in production,
 * `src/adapters/ntfy_notifier.ts`), and `notifyOnce`, the outbox rule every sender follows (the
 * notify tool, custom checks, heartbeats and tasks through the tool): claim the run's key before
 * sending, mark it sent after; a key found, sent or not, is never sent again. A failed send is
 * recorded as failed, which frees its key for a retry.
 *
 * Port: may a notification go out now? Quiet hours hold back everything but urgent ones.
 *
 * Quiet hours in local time, possibly spanning midnight ("23:00" to "07:00").
 */
import type { SideEffectLog } from "./side_effects.ts";
import type { Clock } from "./ports.ts";
import { zonedParts } from "./zoned_time.ts";

/** ntfy's priorities, 1 to 5 (ntfy also calls 5 `max`). */
export const notificationPriorities = ["min", "low", "default", "high", "urgent"] as const;

/** One of ntfy's priorities. */
export type NotificationPriority = (typeof notificationPriorities)[number];

/** True for one of ntfy's priority names. */
export function isNotificationPriority(value: unknown): value is NotificationPriority {
  return (notificationPriorities as readonly unknown[]).includes(value);
}

/** A button on a notification. */
export interface NotificationButton {
  label: string;
  url: string;
  /**
   * What tapping it does: `post` (the default) sends one HTTP POST to `url` from the phone (ntfy's
   * `http` action: for a button that acts without showing anything first, Deny and Undo); `open`
   * opens `url` in the phone's browser (ntfy's `view` action: Approve, whose page shows the whole
   * call before the yes).
   */
  tap?: "post" | "open";
}

/** One notification. */
export interface Notification {
  message: string;
  title?: string;
  /** Absent: the service's default. */
  priority?: NotificationPriority;
  /** Where tapping the notification goes. */
  click?: string;
  /** Buttons (approval notices: Approve, Deny, Undo). */
  buttons?: NotificationButton[];
  /** ntfy tags (emoji short codes such as "warning"). */
  tags?: readonly string[];
  /** The pending approval this notice asks about: a chat channel asks it there, inline. */
  approval?: number;
  /** The outbox key it is sent under: a chat channel queues it once per key, however often retried. */
  key?: string;
}

/** What sending did: the service's HTTP status, or why nothing was delivered (one line). */
export type Delivery =
  | {
    sent: true;
    topic: string;
    status: number;
    /** Where it went as people read it, when not just the ntfy topic ("telegram and ntfy topic x"). */
    to?: string;
  }
  | { sent: false; topic?: string; status?: number; error: string };

/** Port: sends a notification. Never throws: every failure is a Delivery with its reason. */
export interface Notifier {
  /** Where notifications go (the ntfy topic); undefined when none is configured. */
  topic(): string | undefined;
  send(notification: Notification, signal: AbortSignal): Promise<Delivery>;
}

/** What `notifyOnce` did. */
export type NotifyOutcome =
  | {
    state: "sent" | "failed";
    delivery: Delivery;
    /** A failed send recorded in the outbox: Radar tries it again (NotificationRetries). */
    retried?: boolean;
  }
  | {
    /** The run's key was claimed before: sent, or started before a crash (maybe sent). */
    state: "already";
    sent: boolean;
    at: string;
    summary: string;
  };

/**
 * Sends `notification` under the next key of `log` (no log: sent unrecorded): claimed first,
 * then sent, then marked sent or failed with the service's answer.
 */
export async function notifyOnce(
  notifier: Notifier,
  log: SideEffectLog | undefined,
  notification: Notification,
  signal: AbortSignal,
): Promise<NotifyOutcome> {
  const { title, message, priority } = notification;
  const claim = log?.begin("notify", title ? `${title}: ${message}` : message, {
    topic: notifier.topic(),
    title,
    body: message,
    priority,
  });
  if (claim && claim.state !== "new") {
    return { state: "already", sent: claim.state === "sent", at: claim.at, summary: claim.summary };
  }
  const delivery = await notifier.send({ ...notification, key: claim?.key }, signal);
  if (delivery.sent) claim?.done({ status: delivery.status });
  else claim?.abandon({ status: delivery.status, error: delivery.error });
  return {
    state: delivery.sent ? "sent" : "failed",
    delivery,
    retried: !delivery.sent && claim !== undefined,
  };
}

/** One line about an outcome (what the notify tool answers, what a check logs). */
export function notifyOutcomeLine(outcome: NotifyOutcome): string {
  if (outcome.state === "already") {
    const when = outcome.sent ? "was sent" : "was being sent when Radar stopped";
    return `Already notified: an earlier attempt of this run's notification ${when} ` +
      `(${outcome.at}): "${outcome.summary.slice(0, 200)}". Not sent again.`;
  }
  const { delivery } = outcome;
  if (delivery.sent) {
    return `Notification sent to ${delivery.to ?? `ntfy topic ${delivery.topic}`}.`;
  }
  return outcome.retried
    ? `${delivery.error} Radar tries it again over the next hours; do not send it again.`
    : delivery.error;
}

/** The answer of a gate. */
export type GateVerdict = { allowed: true } | { allowed: false; reason: string };

/** Port the `notify` tool asks before sending. */
export interface NotificationGate {
  check(notification: { urgent: boolean }): GateVerdict;
}

/** A gate that suppresses non-urgent notifications during quiet hours (local time). */
export function quietHoursGate(
  quietHours: QuietHours,
  clock: Clock,
  timeZone?: string,
): NotificationGate {
  return {
    check({ urgent }) {
      if (urgent || !isQuietTime(quietHours, clock.now(), timeZone)) return { allowed: true };
      return {
        allowed: false,
        reason:
          `quiet hours (${quietHours!.start}–${quietHours!.end}): only urgent notifications ` +
          `are sent now`,
      };
    },
  };
}

/** A quiet-hours window as configured (HH:MM, 24-hour, local time); null means none. */
export type QuietHours = { start: string; end: string } | null;

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return hours * 60 + minutes;
}

/** Minutes since local midnight of `at` in `timeZone` (undefined: the system's zone). */
function localMinutes(at: Date, timeZone?: string): number {
  const { hour, minute } = zonedParts(at, timeZone);
  return hour * 60 + minute;
}

/** True when `at` falls inside the window; start is inclusive, end exclusive. */
export function isQuietTime(quiet: QuietHours, at: Date, timeZone?: string): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const now = localMinutes(at, timeZone);
  return start < end ? now >= start && now < end : now >= start || now < end;
}
