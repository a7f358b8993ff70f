/**
 * Schema 48: an approval is bound to what it showed (issue 31): `shown_hash`, the SHA-256 over
 * the call as shown (tool, arguments, summary, preview), checked before it runs; and `preview`,
 * the change a file write would make as it was when asked (a diff), shown with the call.
 */
import type { Migration } from "../database.ts";

/** `approvals.shown_hash` and `approvals.preview` (rows from before: no hash, never run). */
export const approvalShownMigration: Migration = {
  version: 48,
  name: "048_approval_shown",
  sql: `
ALTER TABLE approvals ADD COLUMN shown_hash TEXT;
ALTER TABLE approvals ADD COLUMN preview TEXT;
`,
};
