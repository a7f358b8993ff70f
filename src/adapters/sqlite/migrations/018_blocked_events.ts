/** Schema 18: events whose heartbeat a pre_agent_run hook blocked (counted, then set aside). */
import type { Migration } from "../database.ts";

/**
 * `blocked_count`: heartbeats in a row a hook blocked while the event waited; `blocked_reason`:
 * set when the event was set aside (out of the queue, never sent to the model), with the hook's
 * message, so `radar status` can say why.
 */
export const blockedEventsMigration: Migration = {
  version: 18,
  name: "018_blocked_events",
  sql: `
ALTER TABLE events ADD COLUMN blocked_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN blocked_reason TEXT;
CREATE INDEX events_blocked ON events(id) WHERE blocked_reason IS NOT NULL;
`,
};
