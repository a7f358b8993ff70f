/**
 * Schema 46: a scheduled task run's claim names the conversation the run writes in, so a run
 * retried after a crash continues that conversation (one conversation per firing) instead of
 * starting a second one.
 */
import type { Migration } from "../database.ts";

/** `task_claims.conversation_id`. */
export const taskClaimConversationsMigration: Migration = {
  version: 46,
  name: "046_task_claim_conversations",
  sql: `
ALTER TABLE task_claims ADD COLUMN conversation_id INTEGER;
`,
};
