/**
 * Schema 52: a file write's approval remembers what its diff was taken against (issue 31, "you
 * approve exactly what you saw"): `preview_base`, `absent` or `sha256:HEX` of the file when the
 * approval was asked, part of the shown hash; approving refuses when the file is no longer that.
 */
import type { Migration } from "../database.ts";

/** `approvals.preview_base` (rows from before: none, nothing to compare). */
export const approvalPreviewBaseMigration: Migration = {
  version: 52,
  name: "052_approval_preview_base",
  sql: `
ALTER TABLE approvals ADD COLUMN preview_base TEXT;
`,
};
