/**
 * What a digest reads: the period's user and assistant messages (by conversation) and the
 * events the sources queued, each line masked (known secret values, tokens in URLs,
 * Authorization values) and then cut, the whole bounded — the text goes to the model inside
 * untrusted markers. Masking comes before the cut, so a secret cut in half never leaves its
 * first half behind.
 */
import type { DatabaseSync } from "node:sqlite";
import { Secrets } from "../../core/secrets.ts";

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
  db: DatabaseSync,
  from: Date,
  to: Date,
  maxChars: number,
  secrets: Secrets = new Secrets(),
): DigestMaterial {
  const range = [from.toISOString(), to.toISOString()];
  const messages = db.prepare(
    `SELECT c.id AS conversation, c.kind, c.title, m.role, m.content FROM messages m
     JOIN conversations c ON c.id = m.conversation_id
     WHERE m.created_at >= ? AND m.created_at < ? AND m.role IN ('user', 'assistant')
       AND m.content != ''
     ORDER BY m.created_at, m.id LIMIT 2000`,
  ).all(...range) as Array<
    { conversation: number; kind: string; title: string; role: string; content: string }
  >;
  const events = db.prepare(
    `SELECT source, kind, summary FROM events WHERE created_at >= ? AND created_at < ?
     ORDER BY created_at, id LIMIT 2000`,
  ).all(...range) as Array<{ source: string; kind: string; summary: string }>;
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
