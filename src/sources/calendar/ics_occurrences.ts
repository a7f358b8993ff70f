/**
 * iCalendar text → event occurrences in a time range (npm ical.js): recurrence rules, EXDATEs,
 * overridden instances (RECURRENCE-ID) and the file's VTIMEZONEs. A TZID without a VTIMEZONE
 * (common in generated feeds) is read as an IANA zone name (Temporal); a zone nobody knows is
 * read as UTC and the occurrence says so. Also writes a new event.
 */
import ICAL from "ical.js";
import type { CalendarOccurrence, NewCalendarEvent } from "../../core/source_ports.ts";
import { isKnownTimeZone, zonedTimeToUtc } from "../../core/zoned_time.ts";

/** Instances walked per recurring event at most (a hostile RRULE cannot loop forever). */
const maxInstancesPerEvent = 20_000;
/** Occurrences returned per calendar at most. */
const maxOccurrences = 2_000;

/** The occurrences of every event in `text` that overlap [from, to). Throws on unparsable text. */
export function occurrencesIn(
  text: string,
  calendar: string,
  from: Date,
  to: Date,
): CalendarOccurrence[] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of root.getAllSubcomponents("vtimezone")) {
    const timezone = new ICAL.Timezone(zone);
    if (!ICAL.TimezoneService.has(timezone.tzid)) ICAL.TimezoneService.register(timezone);
  }
  const components = root.name === "vevent" ? [root] : root.getAllSubcomponents("vevent");
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Component[] = [];
  for (const component of components) {
    if (component.hasProperty("recurrence-id")) exceptions.push(component);
    else {
      const event = new ICAL.Event(component);
      masters.set(event.uid ?? crypto.randomUUID(), event);
    }
  }
  for (const component of exceptions) {
    const exception = new ICAL.Event(component);
    const master = masters.get(exception.uid);
    if (master) master.relateException(exception);
    else masters.set(`${exception.uid}#${exception.recurrenceId}`, exception);
  }
  const found: CalendarOccurrence[] = [];
  for (const event of masters.values()) {
    for (const occurrence of instancesOf(event, calendar, from, to)) {
      found.push(occurrence);
      if (found.length >= maxOccurrences) return sortByStart(found);
    }
  }
  return sortByStart(found);
}

function sortByStart(list: CalendarOccurrence[]): CalendarOccurrence[] {
  return list.sort((a, b) => a.start.getTime() - b.start.getTime());
}

function* instancesOf(
  event: ICAL.Event,
  calendar: string,
  from: Date,
  to: Date,
): Generator<CalendarOccurrence> {
  if (!event.startDate) return;
  if (!event.isRecurring()) {
    const occurrence = toOccurrence(calendar, event, event.startDate, event.endDate);
    if (overlaps(occurrence, from, to)) yield occurrence;
    return;
  }
  const iterator = event.iterator();
  for (let count = 0; count < maxInstancesPerEvent; count++) {
    const next = iterator.next();
    if (!next || instantOf(next).getTime() >= to.getTime()) return;
    const details = event.getOccurrenceDetails(next);
    const occurrence = toOccurrence(calendar, details.item, details.startDate, details.endDate);
    if (overlaps(occurrence, from, to)) yield occurrence;
  }
}

function overlaps(occurrence: CalendarOccurrence, from: Date, to: Date): boolean {
  return occurrence.start.getTime() < to.getTime() && occurrence.end.getTime() > from.getTime();
}

function toOccurrence(
  calendar: string,
  item: ICAL.Event,
  start: ICAL.Time,
  end: ICAL.Time | undefined,
): CalendarOccurrence {
  const startDate = instantOf(start);
  const endDate = end
    ? instantOf(end)
    : new Date(startDate.getTime() + (start.isDate ? 86_400_000 : 0));
  const occurrence: CalendarOccurrence = {
    calendar,
    uid: item.uid ?? "",
    title: oneLine(item.summary || "(no title)", 200),
    start: startDate,
    end: endDate,
    allDay: start.isDate,
  };
  if (item.location) occurrence.location = oneLine(item.location, 200);
  const unknown = unresolvedZone(start);
  if (unknown) occurrence.unknownZone = oneLine(unknown, 60);
  return occurrence;
}

/** The TZID of a time the file gave no VTIMEZONE for (ical.js then treats it as floating). */
function bareZoneId(time: ICAL.Time): string | undefined {
  const tzid = (time as ICAL.Time & { timezone?: string }).timezone;
  return !time.isDate && tzid && time.zone?.tzid === "floating" ? tzid : undefined;
}

/** A TZID that neither the file nor Temporal knows; undefined when the time is understood. */
function unresolvedZone(time: ICAL.Time): string | undefined {
  const tzid = bareZoneId(time);
  return tzid && !isKnownTimeZone(tzid) ? tzid : undefined;
}

/**
 * The instant of an ICAL time: all-day dates as UTC midnights (shown as dates, whatever the system
 * zone), a bare IANA TZID through Temporal, everything else as ical.js reads it.
 */
function instantOf(time: ICAL.Time): Date {
  if (time.isDate) return new Date(Date.UTC(time.year, time.month - 1, time.day));
  const tzid = bareZoneId(time);
  if (tzid && isKnownTimeZone(tzid)) {
    const { year, month, day, hour, minute, second } = time;
    const at = zonedTimeToUtc({ year, month, day, hour, minute, second }, tzid);
    if (at) return at;
  }
  if (tzid) {
    // Unknown zone: read the wall time as UTC (and the occurrence says so).
    return new Date(
      Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second),
    );
  }
  return time.toJSDate();
}

function oneLine(text: string, max: number): string {
  return String(text).replace(/\s+/g, " ").trim().slice(0, max);
}

/** The iCalendar text of a new single event (UTC times). */
export function newEventIcs(event: NewCalendarEvent, uid: string, now: Date): string {
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", "-//Radar//EN");
  calendar.updatePropertyWithValue("version", "2.0");
  const vevent = new ICAL.Component("vevent");
  vevent.updatePropertyWithValue("uid", uid);
  vevent.updatePropertyWithValue("dtstamp", ICAL.Time.fromJSDate(now, true));
  vevent.updatePropertyWithValue("dtstart", ICAL.Time.fromJSDate(event.start, true));
  vevent.updatePropertyWithValue("dtend", ICAL.Time.fromJSDate(event.end, true));
  vevent.updatePropertyWithValue("summary", event.title);
  if (event.location) vevent.updatePropertyWithValue("location", event.location);
  if (event.description) vevent.updatePropertyWithValue("description", event.description);
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}
