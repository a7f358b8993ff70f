/** Port: where plugin approvals and review state are kept (SQLite in Radar, memory in tests). */
import type { PluginGrant } from "../sandbox/permissions.ts";
import type { PluginReview } from "../core/plugin_state.ts";

/** One approval: these exact files may run with this grant. */
export interface PluginApproval {
  id: number;
  name: string;
  version: string;
  filesHash: string;
  trustLevel: "sandbox" | "local";
  grant: PluginGrant;
  approvedBy: "user" | "tests_passed";
  approvedAt: string;
}

/** Approval and review storage. */
export interface PluginRecords {
  addApproval(approval: Omit<PluginApproval, "id">): number;
  /** The newest unrevoked approval for these exact files. */
  findApproval(name: string, filesHash: string): PluginApproval | undefined;
  /** The newest unrevoked approval of any version of a plugin. */
  latestApproval(name: string): PluginApproval | undefined;
  revokeApprovals(name: string, at: Date): void;
  saveReview(review: PluginReview): void;
  getReview(name: string): PluginReview | undefined;
  deleteReview(name: string): void;
}
