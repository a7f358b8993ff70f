/** What a digest reads: a period's user and assistant messages and its queued events. */
import type { DatabaseSync } from "node:sqlite";
import type { PeriodActivity, PeriodEvent, PeriodMessage } from "../../sources/source_stores.ts";
import { statement } from "./statements.ts";

/** Rows read per period and kind at most. */
const maxRows = 2000;

/** A period's messages and events over the `messages`, `conversations` and `events` tables. */
export class SqlitePeriodActivity implements PeriodActivity {
  constructor(private readonly db: DatabaseSync) {}

  /** User and assistant messages with text, oldest first. */
  messages(from: Date, to: Date): PeriodMessage[] {
    return statement(
      this.db,
      `SELECT c.id AS conversation, c.kind, c.title, m.role, m.content FROM messages m
       JOIN conversations c ON c.id = m.conversation_id
       WHERE m.created_at >= ? AND m.created_at < ? AND m.role IN ('user', 'assistant')
         AND m.content != ''
       ORDER BY m.created_at, m.id LIMIT ${maxRows}`,
    ).all(from.toISOString(), to.toISOString()) as unknown as PeriodMessage[];
  }

  /** Events queued in the period, oldest first. */
  events(from: Date, to: Date): PeriodEvent[] {
    return statement(
      this.db,
      `SELECT source, kind, summary FROM events WHERE created_at >= ? AND created_at < ?
       ORDER BY created_at, id LIMIT ${maxRows}`,
    ).all(from.toISOString(), to.toISOString()) as unknown as PeriodEvent[];
  }
}
