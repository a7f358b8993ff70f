/**
 * `{{ variable }}` templates in a personality's body. The built-ins `current_time`,
 * `current_date` and `day_of_week` are the time the conversation STARTED (not the time of each
 * request): the system prompt stays byte-identical for the whole conversation, so the model
 * server's prompt cache is reused, and every user message carries its own send time anyway.
 * Any other name is a plugin prompt variable (`{{ hostname }}` or `{{ plugin.hostname }}`),
 * inserted as quoted, flattened, bounded data; unknown names render as nothing (as in the guide).
 * Built-ins take precedence over plugin variables of the same name.
 */
import { oneLine, promptVariableLimits } from "../core/system_prompt.ts";
import { textForModel } from "../core/untrusted_text.ts";
import { formatClock, formatDate, zonedParts } from "../core/zoned_time.ts";

/** The names the templates know without plugins. */
const builtinVariables = ["current_time", "current_date", "day_of_week"] as const;

const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const templatePattern = /\{\{\s*([A-Za-z0-9_.]{1,80})\s*\}\}/g;

/** What a rendered body used. */
export interface RenderedTemplate {
  text: string;
  /** Plugin variable keys (`plugin.variable`) the body used (left out of the variables block). */
  usedVariables: string[];
}

/** True when the text holds a template. */
export function hasTemplates(text: string): boolean {
  return /\{\{\s*[A-Za-z0-9_.]{1,80}\s*\}\}/.test(text);
}

/** The built-in values at `at` in `timeZone` (the machine's zone without one). */
export function timeValues(at: Date, timeZone?: string): Record<string, string> {
  return {
    current_time: formatClock(at, timeZone),
    current_date: formatDate(at, timeZone),
    day_of_week: weekdays[zonedParts(at, timeZone).weekday % 7],
  };
}

/** Renders a body's templates with the conversation's start time and plugin variables. */
export function renderTemplate(
  body: string,
  context: { startedAt: Date; timeZone?: string; variables?: Record<string, string> },
): RenderedTemplate {
  if (!hasTemplates(body)) return { text: body, usedVariables: [] };
  let times: Record<string, string> | undefined;
  const variables = context.variables ?? {};
  const keys = Object.keys(variables).sort();
  const used = new Set<string>();
  const text = body.replace(templatePattern, (_whole, name: string) => {
    if ((builtinVariables as readonly string[]).includes(name)) {
      times ??= timeValues(context.startedAt, context.timeZone);
      return times[name];
    }
    const key = name.includes(".")
      ? keys.find((candidate) => candidate === name)
      : keys.find((candidate) => candidate.endsWith(`.${name}`));
    const value = key === undefined ? undefined : variables[key];
    if (typeof value !== "string") return "";
    used.add(key!);
    return JSON.stringify(oneLine(textForModel(value), promptVariableLimits.maxValueChars));
  });
  return { text, usedVariables: [...used] };
}
