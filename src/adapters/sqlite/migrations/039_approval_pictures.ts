/**
 * Schema 39: what a pending approval shows besides the call: a summary as people read it (a
 * browser submission's page and fields, passwords masked) and a screenshot of the filled page.
 */
import type { Migration } from "../database.ts";

/** `approvals.summary` and `approvals.screenshot` (a PNG, read only by its own query). */
export const approvalPicturesMigration: Migration = {
  version: 39,
  name: "039_approval_pictures",
  sql: `
ALTER TABLE approvals ADD COLUMN summary TEXT;
ALTER TABLE approvals ADD COLUMN screenshot BLOB;
`,
};
