/** Compact lines for calendar occurrences in the configured time zone. */
import type { CalendarOccurrence } from "./source_ports.ts";

function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  return new Intl.DateTimeFormat("en-GB", { timeZone, ...options });
}

/** "Tue 24 Nov 14:30–15:00 Dentist @ Room 4 [work]" (all-day: "Tue 27 Oct all day …"). */
export function describeOccurrence(occurrence: CalendarOccurrence, timeZone?: string): string {
  const day = formatter(occurrence.allDay ? "UTC" : timeZone, {
    weekday: "short",
    day: "numeric",
    month: "short",
  }).format(occurrence.start).replace(",", "");
  const time = formatter(timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const when = occurrence.allDay
    ? `${day} all day`
    : `${day} ${time.format(occurrence.start)}–${time.format(occurrence.end)}`;
  const where = occurrence.location ? ` @ ${occurrence.location}` : "";
  return `${when} ${occurrence.title}${where} [${occurrence.calendar}]`;
}
