/** Every schema migration, in order. Each concern adds its own numbered file here. */
import type { Migration } from "../database.ts";
import { coreMigration } from "./001_core.ts";
import { toolAuditMigration } from "./002_tool_audit.ts";
import { daemonMigration } from "./003_daemon.ts";
import { pluginsMigration } from "./004_plugins.ts";
import { webMigration } from "./005_web.ts";
import { monitorsMigration } from "./006_monitors.ts";
import { messageSearchMigration } from "./007_message_search.ts";
import { durabilityMigration } from "./009_durability.ts";
import { embeddingsMigration } from "./010_embeddings.ts";
import { sourcesMigration } from "./011_sources.ts";
import { mcpMigration } from "./012_mcp.ts";
import { checksMigration } from "./013_checks.ts";
import { personalitiesMigration } from "./014_personalities.ts";
import { summariesEvalMigration } from "./015_summaries_eval.ts";
import { mcpToolChangesMigration } from "./016_mcp_tool_changes.ts";
import { blockedEventsMigration } from "./018_blocked_events.ts";
import { digestEmbeddingsMigration } from "./019_digest_embeddings.ts";
import { approvalsMigration } from "./020_approvals.ts";
import { grantsMigration } from "./021_grants.ts";
import { actionJournalMigration } from "./022_action_journal.ts";
import { receiptsMigration } from "./023_receipts.ts";
import { watcherReconcileMigration } from "./027_watcher_reconcile.ts";
import { conversationRunsMigration } from "./028_conversation_runs.ts";
import { spentOneShotsMigration } from "./029_spent_one_shots.ts";
import { mcpProgramHashMigration } from "./030_mcp_program_hash.ts";
import { outboxRecordsMigration } from "./033_outbox_records.ts";
import { moneyMigration } from "./034_money.ts";
import { moneyAlertsMigration } from "./035_money_alerts.ts";
import { approvalPicturesMigration } from "./039_approval_pictures.ts";
import { backgroundModelCallsMigration } from "./040_background_model_calls.ts";
import { grantPrivateDataMigration } from "./041_grant_private_data.ts";
import { approvalLabelsMigration } from "./042_approval_labels.ts";
import { channelInboxMigration } from "./043_channel_inbox.ts";
import { channelOutboxMigration } from "./044_channel_outbox.ts";
import { channelPeopleMigration } from "./045_channel_people.ts";
import { taskClaimConversationsMigration } from "./046_task_claim_conversations.ts";
import { proactiveEvalMigration } from "./047_proactive_eval.ts";
import { approvalShownMigration } from "./048_approval_shown.ts";
import { messageReadFromMigration } from "./053_message_read_from.ts";
import { boundsMigration } from "./049_bounds.ts";
import { channelAnswersMigration } from "./050_channel_answers.ts";
import { approvalPreviewBaseMigration } from "./052_approval_preview_base.ts";

/** The ordered migrations applied by `openDatabase`. */
export const migrations: readonly Migration[] = [
  coreMigration,
  toolAuditMigration,
  daemonMigration,
  pluginsMigration,
  webMigration,
  monitorsMigration,
  messageSearchMigration,
  durabilityMigration,
  embeddingsMigration,
  sourcesMigration,
  mcpMigration,
  checksMigration,
  personalitiesMigration,
  summariesEvalMigration,
  mcpToolChangesMigration,
  blockedEventsMigration,
  digestEmbeddingsMigration,
  approvalsMigration,
  grantsMigration,
  actionJournalMigration,
  receiptsMigration,
  watcherReconcileMigration,
  conversationRunsMigration,
  spentOneShotsMigration,
  mcpProgramHashMigration,
  outboxRecordsMigration,
  moneyMigration,
  moneyAlertsMigration,
  approvalPicturesMigration,
  backgroundModelCallsMigration,
  grantPrivateDataMigration,
  approvalLabelsMigration,
  channelInboxMigration,
  channelOutboxMigration,
  channelPeopleMigration,
  taskClaimConversationsMigration,
  proactiveEvalMigration,
  approvalShownMigration,
  boundsMigration,
  channelAnswersMigration,
  approvalPreviewBaseMigration,
  messageReadFromMigration,
];
