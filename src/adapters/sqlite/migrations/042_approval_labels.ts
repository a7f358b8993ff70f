/**
 * Schema 42: what a pending approval records of its run's labels — the private sources it had
 * read, and where the call would send (`destinations`: a JSON list of origins, or "anywhere"), so
 * the notice can name the place without the arguments, and "Always allow…" can suggest a grant
 * for private data to exactly that place.
 */
import type { Migration } from "../database.ts";

/** `approvals.private_sources` and `approvals.destinations`. */
export const approvalLabelsMigration: Migration = {
  version: 42,
  name: "042_approval_labels",
  sql: `
ALTER TABLE approvals ADD COLUMN private_sources TEXT NOT NULL DEFAULT '[]';
ALTER TABLE approvals ADD COLUMN destinations TEXT NOT NULL DEFAULT '[]';
`,
};
