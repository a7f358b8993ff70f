/**
 * `calendar`: what is on today, tomorrow or this week (compact lines in `radar.timezone`), and
 * adding an event to a CalDAV calendar: only after a person's yes (chat, the dashboard's chat),
 * never unattended (`radar ask`, tasks, the heartbeat), and never twice (the reader derives the
 * event's UID from the event).
 */
import { z } from "zod";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { CalendarReader } from "../core/source_ports.ts";
import { parseZonedTime, startOfZonedDay } from "../core/zoned_time.ts";
import type { Clock } from "../core/ports.ts";
import type { RadarConfig } from "../config/schema.ts";
import { describeOccurrence } from "../sources/calendar/calendar_text.ts";
import { calendarOrigins } from "./destinations.ts";

/** What the calendar tool needs. */
export interface CalendarToolDependencies {
  calendar: CalendarReader;
  clock: Clock;
  config: RadarConfig;
}

const ranges = { today: [0, 1], tomorrow: [1, 2], week: [0, 7] } as const;

/** calendar's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const calendarInput = lazyValue(() =>
  z.object({
    action: z.enum(["list", "add"]).optional(),
    range: z.enum(["today", "tomorrow", "week"]).optional(),
    title: z.string().min(1).max(200).optional(),
    start: z.string().max(40).optional().describe("YYYY-MM-DD HH:MM local time"),
    minutes: z.number().int().min(1).max(10080).optional().describe("Duration (default 60)"),
    location: z.string().max(200).optional(),
    calendar: z.string().max(40).optional(),
  })
);

/** Creates the calendar tool. */
export function calendarTool(deps: CalendarToolDependencies): Tool {
  const { calendar } = deps;
  const timeZone = deps.config.radar.timezone || undefined;
  return defineTool({
    name: "calendar",
    effect: ({ action }) => action === "add" ? "sends_out" : "none",
    destinations: ({ calendar: name }) => calendarOrigins(deps.config, name),
    description: "Calendar events today/tomorrow/this week, or add an event",
    keywords: [
      "calendar",
      "meeting",
      "meetings",
      "event",
      "appointment",
      "schedule",
      "today",
      "week",
      "agenda",
    ],
    parameters: toolParameters.calendar,
    input: calendarInput,
    run: async (input, context) => {
      const now = deps.clock.now();
      if ((input.action ?? "list") === "list") {
        const [first, last] = ranges[input.range ?? "today"];
        const from = first === 0 ? now : startOfZonedDay(now, timeZone, first);
        const to = startOfZonedDay(now, timeZone, last);
        const { events, errors } = await calendar.occurrences(from, to, context.signal);
        const lines = events.map((event) => describeOccurrence(event, timeZone));
        if (!lines.length) lines.push(`Nothing on the calendar (${input.range ?? "today"}).`);
        return [...lines, ...errors.map((error) => `(could not read ${error})`)].join("\n");
      }
      if (!context.confirm) {
        return refused(
          "Adding a calendar event needs the user's yes, which nobody can give here: ask in " +
            "radar chat or the dashboard's chat.",
        );
      }
      const writable = calendar.writable();
      const target = input.calendar ?? writable[0];
      if (!target || !writable.includes(target)) {
        return failed(
          `No writable (CalDAV) calendar${input.calendar ? ` "${input.calendar}"` : ""}.`,
        );
      }
      if (!input.title || !input.start) return failed("Adding an event needs title and start.");
      const start = parseZonedTime(input.start, timeZone);
      if (!start) return failed(`"${input.start}" is not a date like 2026-11-25 09:30.`);
      const end = new Date(start.getTime() + (input.minutes ?? 60) * 60_000);
      const event = { title: input.title, start, end, location: input.location };
      const line = describeOccurrence(
        { ...event, calendar: target, uid: "", allDay: false },
        timeZone,
      );
      if (!await context.confirm(`Add to the calendar: ${line}?`)) {
        return refused("The user declined adding the event.");
      }
      try {
        const { added } = await calendar.add(target, event, context.signal);
        return added ? `Added: ${line}` : `Already on the calendar: ${line}`;
      } catch (error) {
        return failed((error as Error).message);
      }
    },
  });
}
