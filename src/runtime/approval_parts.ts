/**
 * "Act while I'm away", assembled: the stores (approvals, capabilities, grants, action journal,
 * task firings), the standing grants, the approval service with its ntfy notices, undo, and the
 * upkeep tick job. `openRadar` hands the parts to the agent loop (grant check, approvals, trusted
 * config text), the tools (journal) and the facade.
 */
import { ChangeNotices } from "../application/change_notices.ts";
import type { DatabaseSync } from "node:sqlite";
import { hostname } from "node:os";
import type { RadarConfig } from "../config/schema.ts";
import { expandHome, homeDirectory } from "../config/paths.ts";
import type { ActionJournal } from "../core/action_journal.ts";
import type { TaskFirings } from "../core/receipts.ts";
import type { Secrets } from "../core/secrets.ts";
import type { ToolGate, ToolObserver, ToolRegistry } from "../core/tool_registry.ts";
import { SqliteApprovalStore } from "../adapters/sqlite/approval_store.ts";
import { SqliteCapabilityStore } from "../adapters/sqlite/capability_store.ts";
import { SqliteGrantStore } from "../adapters/sqlite/grant_store.ts";
import { SqliteActionJournal } from "../adapters/sqlite/action_journal_store.ts";
import { SqliteTaskFirings } from "../adapters/sqlite/task_firing_store.ts";
import { ApprovalService, type ApprovalServiceParts } from "../application/approvals.ts";
import { StandingGrants } from "../application/standing_grants.ts";
import { ApprovalUpkeep } from "../application/approval_upkeep.ts";
import { grantPathPolicy } from "../tools/grant_paths.ts";
import { displayPath } from "../sandbox/describe_permissions.ts";
import { pruneJournal, undoChange, type UndoResult } from "../tools/file_undo.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";

/** The file changes the tools made, and their undo. */
export interface FileActions {
  journal: ActionJournal;
  /** Undoes change `id`, or the newest one not undone yet. */
  undo(id?: number): Promise<UndoResult>;
}

/** What `approvalParts` builds. */
export interface ApprovalParts {
  /** Pending approvals: list, show, approve, deny, "Always allow…", button capabilities. */
  approvals: ApprovalService;
  /** Standing grants: radar.yaml's rules and the stored ones. */
  grants: StandingGrants;
  /** What an unattended run changed on its own, told with Undo buttons. */
  changeNotices: ChangeNotices;
  /** The action journal of file changes, and undo. */
  actions: FileActions;
  /** Each time a task was due and what became of it (`radar task log`). */
  taskFirings: TaskFirings;
  upkeep: ApprovalUpkeep;
  /** Trusted text besides the user's words: the folders and places the config names. */
  trustedContext: () => string[];
}

/** What the parts are built from. */
export interface ApprovalPartsInput
  extends Pick<ApprovalServiceParts, "clock" | "logger" | "conversations" | "audit" | "notify"> {
  config: RadarConfig;
  db: DatabaseSync;
  files: FileAccessDependencies;
  registry: ToolRegistry;
  /** The hooks' gate and observer: an approved call still passes them. */
  gates: readonly ToolGate[];
  observers: readonly ToolObserver[];
  elapsed: () => number;
  /** Every secret known now: notices and results are masked with them. */
  secrets: Pick<Secrets, "mask">;
}

/** Builds the approvals, grants, journal and firings over the open database. */
export function approvalParts(input: ApprovalPartsInput): ApprovalParts {
  const { config, db, clock, logger, registry } = input;
  const journal = new SqliteActionJournal(db);
  const undoDeps = { ...input.files, journal, clock };
  const actions: FileActions = { journal, undo: (id) => undoChange(undoDeps, id) };
  const grants = new StandingGrants({
    store: new SqliteGrantStore(db),
    configured: () => config.grants,
    paths: grantPathPolicy(input.files),
    clock,
    tool: (name) => registry.get(name),
  });
  const mask = (text: string) => input.secrets.mask(text);
  const approvals = new ApprovalService({
    store: new SqliteApprovalStore(db),
    tokens: new SqliteCapabilityStore(db),
    grants,
    journal,
    conversations: input.conversations,
    audit: input.audit,
    clock,
    logger,
    settings: () => ({
      expireHours: config.approvals.expire_hours,
      notify: config.approvals.notify,
      timeZone: config.radar.timezone || undefined,
    }),
    execute: (record, signal) =>
      registry.execute({
        id: `approval_${record.id}`,
        name: record.tool,
        arguments: record.arguments,
      }, {
        offered: new Set([record.tool]),
        // The user said yes to exactly this call: the tool's own questions are answered yes.
        context: {
          kind: record.kind,
          conversationId: record.conversationId,
          interactive: true,
          confirm: () => Promise.resolve(true),
          signal,
          approvalId: record.id,
        },
        gates: input.gates,
        observers: input.observers,
        maxResultChars: config.tools.max_result_chars,
        elapsed: input.elapsed,
      }),
    undo: async (id) => {
      const result = await actions.undo(id);
      return result.ok
        ? { ok: true, text: `Undone: ${result.note}.` }
        : { ok: false, text: `Not undone: ${result.reason}.` };
    },
    notify: input.notify,
    baseUrl: () => dashboardBaseUrl(config),
    mask,
  });
  const taskFirings = new SqliteTaskFirings(db);
  const changeNotices = new ChangeNotices({
    journal,
    notify: input.notify,
    undoUrl: (id) => approvals.undoUrl(id),
    display: (path) => displayPath(path, homeDirectory(input.files.env)),
    mask,
    enabled: () => config.approvals.notify,
  });
  return {
    approvals,
    changeNotices,
    grants,
    actions,
    taskFirings,
    upkeep: new ApprovalUpkeep({
      approvals,
      firings: taskFirings,
      pruneJournal: () => pruneJournal(undoDeps, config.tools.files.journal_days),
      logger,
    }),
    trustedContext: () => trustedConfigText(config, input.files.env),
  };
}

/** Where the phone reaches the dashboard: `web.public_url`, else http://HOST:PORT. */
export function dashboardBaseUrl(config: RadarConfig): string {
  if (config.web.public_url) return config.web.public_url.replace(/\/+$/, "");
  const host = ["0.0.0.0", "::", "[::]"].includes(config.web.host) ? hostname() : config.web.host;
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${shown}:${config.web.port}`;
}

/**
 * Text the user wrote into the config that names places (watched folders, writable folders):
 * a path under them is the user's choice, not text from outside.
 */
function trustedConfigText(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): string[] {
  const places = [
    ...config.watchers.flatMap((watcher) => [watcher.path, watcher.pattern]),
    ...config.tools.files.writable_roots,
    ...config.tools.exec.writable_roots,
  ];
  return [
    homeDirectory(env),
    ...places,
    ...places.map((place) => expandHome(place, env)),
  ];
}
