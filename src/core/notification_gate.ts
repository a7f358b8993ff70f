/** Port: may a notification go out now? Quiet hours hold back everything but urgent ones. */
import type { Clock } from "./ports.ts";
import { isQuietTime, type QuietHours } from "./quiet_hours.ts";

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
