/**
 * Acting while away: what a run may do when nobody watches, and how the user answers later. The
 * run guard (`run_guard.ts`) keeps the run's labels (`run_labels.ts`: untrusted, private, from what
 * it read) and applies the flow rule (`flow_rule.ts`): a run that read untrusted text changes or
 * sends only what trusted text derives (`argument_provenance.ts`) or a standing grant matches
 * (`standing_grants.ts`, `grant_rules.ts`, `grant_paths.ts`); a run that read private data sends
 * only where a grant lets private data go (origins, `core/origins.ts`). Otherwise it asks the
 * person or stores a pending approval (`approvals.ts`: approve, deny, "Always allow…", the phone's
 * single-use buttons), whose notices carry no values (`notice_text.ts`). File changes are journaled
 * (`file_journal.ts`) and undone (`file_undo.ts`); `change_notices.ts` tells what a heartbeat
 * changed on its own; `receipts.ts` records what became of each task firing and notification;
 * `approval_upkeep.ts` expires and prunes. `build_away.ts` assembles it once.
 * Other layers import from this face; the SQLite stores implement `approval_ports.ts`,
 * `action_journal.ts` and `receipts.ts`.
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
  suggestedPrivateDataTo,
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
export { previewBaseLine } from "./approval_shown.ts";
export type { StandingGrants } from "./standing_grants.ts";
export type { ChangeNotices } from "./change_notices.ts";
export {
  type FileJournalDependencies,
  journalFolder,
  recordChange,
  saveBeforeReplace,
} from "./file_journal.ts";
export type { UndoResult } from "./file_undo.ts";
export { retryDelaysMinutes, type TaskFiring, type TaskFirings } from "./receipts.ts";
