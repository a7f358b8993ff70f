/** Compact lines for calendar occurrences in the configured time zone. */
import type { CalendarOccurrence } from "../../core/source_ports.ts";
import { formatClock, formatDay } from "../../core/zoned_time.ts";

/** "Tue 24 Nov 14:30–15:00 Dentist @ Room 4 [work]" (all-day: "Tue 27 Oct all day …"). */
export function describeOccurrence(occurrence: CalendarOccurrence, timeZone?: string): string {
  const when = occurrence.allDay
    ? `${formatDay(occurrence.start, "UTC")} all day`
    : `${formatDay(occurrence.start, timeZone)} ${formatClock(occurrence.start, timeZone)}–${
      formatClock(occurrence.end, timeZone)
    }`;
  const where = occurrence.location ? ` @ ${occurrence.location}` : "";
  const zone = occurrence.unknownZone
    ? ` (unknown time zone "${occurrence.unknownZone}": time read as UTC)`
    : "";
  return `${when} ${occurrence.title}${where} [${occurrence.calendar}]${zone}`;
}
