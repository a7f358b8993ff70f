/**
 * Schema 42: what a pending approval records of its run's labels — the private sources it had
 * read, where the call would send private data no grant covers (`destinations`: a JSON list of
 * origins, or "anywhere"; "Always allow…" suggests a grant for private data to exactly those) and
 * which of those places the user's own words named (`named_destinations`: the only ones a notice
 * shows).
 */
import type { Migration } from "../database.ts";

/** `approvals.private_sources`, `approvals.destinations` and `approvals.named_destinations`. */
export const approvalLabelsMigration: Migration = {
  version: 42,
  name: "042_approval_labels",
  sql: `
ALTER TABLE approvals ADD COLUMN private_sources TEXT NOT NULL DEFAULT '[]';
ALTER TABLE approvals ADD COLUMN destinations TEXT NOT NULL DEFAULT '[]';
ALTER TABLE approvals ADD COLUMN named_destinations TEXT NOT NULL DEFAULT '[]';
`,
};
