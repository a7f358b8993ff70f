/**
 * Acting while away: what a run may do when nobody watches, and how the user answers later. The
 * run guard (`run_guard.ts`, over what the run read: `taint.ts`) lets a changing call of a run that
 * read untrusted text through when a standing grant (`standing_grants.ts`, `grant_rules.ts`,
 * `grant_paths.ts`) matches, else asks the person or stores a pending approval (`approvals.ts`:
 * approve, deny, "Always allow…", the phone's single-use buttons). File changes are journaled
 * (`file_journal.ts`) and undone (`file_undo.ts`); `change_notices.ts` tells what a heartbeat
 * changed on its own; `approval_upkeep.ts` expires and prunes. `build_away.ts` assembles it once.
 * Other layers import from this face; the SQLite stores implement `approval_ports.ts` and
 * `action_journal.ts`.
 */
export { type Away, type AwayParts, buildAway, dashboardBaseUrl } from "./build_away.ts";
export {
  approvalId,
  type ApprovalOutcome,
  type ApprovalService,
  type ButtonOutcome,
  decidedWhere,
  describeApproval,
  outcomeLine,
  parseArguments,
} from "./approvals.ts";
export type {
  ApprovalChannel,
  ApprovalRecord,
  ApprovalRequests,
  StandingGrant,
} from "./approval_ports.ts";
export {
  type ActionJournal,
  describeChange,
  type JournalEntry,
  notUndoableNote,
  undoable,
} from "./action_journal.ts";
export { describeGrant } from "./grant_rules.ts";
export type { StandingGrants } from "./standing_grants.ts";
export type { ChangeNotices } from "./change_notices.ts";
export {
  type FileJournalDependencies,
  journalFolder,
  recordChange,
  saveBeforeReplace,
} from "./file_journal.ts";
export type { UndoResult } from "./file_undo.ts";
