/** Schema 5: what the dashboard reads per conversation (a conversation's tool call outcomes). */
import type { Migration } from "../database.ts";

/** An index for one conversation's audit rows (also speeds up deleting a conversation). */
export const webMigration: Migration = {
  version: 5,
  name: "005_web",
  sql: `
CREATE INDEX tool_calls_conversation ON tool_calls(conversation_id);
`,
};
