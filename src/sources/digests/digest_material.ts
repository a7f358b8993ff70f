/**
 * What a digest reads: the period's user and assistant messages (by conversation) and the
 * events the sources queued, each line masked (known secret values, tokens in URLs,
 * Authorization values) and then cut, the whole bounded — the text goes to the model inside
 * untrusted markers. Masking comes before the cut, so a secret cut in half never leaves its
 * first half behind.
 */
import { Secrets } from "../../core/secrets.ts";
import type { PeriodActivity } from "../source_stores.ts";

/** The lines of one period, and how many were left out. */
export interface DigestMaterial {
  lines: string[];
  omitted: number;
}

const lineChars = 300;

function cut(text: string, secrets: Secrets): string {
  const flat = secrets.mask(text).replace(/\s+/g, " ").trim();
  return flat.length > lineChars ? `${flat.slice(0, lineChars)}…` : flat;
}

/**
 * Messages and events from `from` (inclusive) to `to` (exclusive), at most `maxChars`, masked
 * with `secrets` (every secret known now).
 */
export function digestMaterial(
  activity: PeriodActivity,
  from: Date,
  to: Date,
  maxChars: number,
  secrets: Secrets = new Secrets(),
): DigestMaterial {
  const messages = activity.messages(from, to);
  const events = activity.events(from, to);
  const all: string[] = [];
  let current: number | undefined;
  for (const message of messages) {
    if (message.conversation !== current) {
      current = message.conversation;
      all.push(
        `# ${message.kind} conversation ${message.conversation}: ${cut(message.title, secrets)}`,
      );
    }
    all.push(`${message.role}: ${cut(message.content, secrets)}`);
  }
  if (events.length) all.push("# events");
  for (const event of events) {
    all.push(`${event.source} ${event.kind}: ${cut(event.summary, secrets)}`);
  }
  const lines: string[] = [];
  let size = 0;
  for (const line of all) {
    if (size + line.length + 1 > maxChars) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { lines, omitted: all.length - lines.length };
}
