/**
 * Acting while away, assembled once (`buildAway`, called by the composition root): the standing
 * grants, the approval service with its ntfy notices through the outbox, undo, the change notices
 * and the upkeep tick job, over the stores it is given. It hands out the facade's `away`, the run
 * guard of each agent run (grant check, approvals, trusted config text) and the tick job.
 */
import { hostname } from "node:os";
import type { RadarConfig } from "../config/schema.ts";
import { expandHome, homeDirectory } from "../config/paths.ts";
import type { RunGuards } from "../core/agent_types.ts";
import { type Notifier, notifyOnce } from "../core/notifier.ts";
import type { TaskFirings } from "./receipts.ts";
import { runSideEffects } from "../core/run_side_effects.ts";
import type { Secrets } from "../core/secrets.ts";
import type { ToolGate, ToolObserver, ToolRegistry } from "../core/tool_registry.ts";
import type { Outbox, TickJob } from "../core/work_ports.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import type { ActionJournal } from "./action_journal.ts";
import { journalMaxBytes } from "./journal_bound.ts";
import type { ApprovalNotifier, ApprovalRequests, AwayStores } from "./approval_ports.ts";
import { ApprovalService, type ApprovalServiceParts } from "./approvals.ts";
import { ApprovalUpkeep } from "./approval_upkeep.ts";
import { ChangeNotices } from "./change_notices.ts";
import type { UndoResult } from "./file_undo.ts";
import { pruneJournal } from "./file_journal.ts";
import { grantPathPolicy } from "./grant_paths.ts";
import { StandingGrants } from "./standing_grants.ts";

// Modules an idle daemon does not run, loaded at run time on first need (Deno reads none of them
// while it starts): the run guard with its labels, provenance and flow rule (the first agent
// run), undo (the first undo) and the write preview (the first approval of a file write).

/** The run guard with its labels, provenance and flow rule, loaded by the first agent run. */
function runGuardModule(): Promise<typeof import("./run_guard.ts")> {
  return import(new URL("./run_guard.ts", import.meta.url).href);
}

/** Undo, loaded by the first undo. */
function fileUndoModule(): Promise<typeof import("./file_undo.ts")> {
  return import(new URL("./file_undo.ts", import.meta.url).href);
}

/** The write preview, loaded by the first approval of a file write. */
function writePreviewModule(): Promise<typeof import("./write_preview.ts")> {
  return import(new URL("./write_preview.ts", import.meta.url).href);
}

/** Acting while away as the CLI and the dashboard use it: the facade's `away`. */
export interface Away {
  /** Pending approvals: list, show, approve, deny, "Always allow…", the phone's buttons. */
  approvals: ApprovalService;
  /** Standing grants: radar.yaml's rules and the stored ones. */
  grants: StandingGrants;
  /** The file changes the tools made. */
  journal: ActionJournal;
  /** Undoes change `id`, or the newest one not undone yet. */
  undo(id?: number): Promise<UndoResult>;
  /**
   * The guard of each agent run (`AgentDependencies.guard`); with `approvals: false` a call that
   * needs a yes is refused instead of becoming a pending approval (`radar eval`); with other
   * `approvals` the pending approval is asked through them (a chat channel asks in its chat too).
   */
  guard(options?: { approvals: false | ApprovalRequests }): Promise<RunGuards>;
}

/** What `buildAway` builds: the facade's part, and what the composition root wires in. */
export interface AwayParts {
  away: Away;
  /** What an unattended run changed on its own, told with Undo buttons (the heartbeat). */
  changeNotices: ChangeNotices;
  /** Expires approvals each tick; prunes hourly. */
  upkeep: TickJob;
}

/** What acting while away is built from. */
export interface AwayInput
  extends Pick<ApprovalServiceParts, "clock" | "logger" | "conversations" | "audit"> {
  config: RadarConfig;
  stores: AwayStores;
  files: FileAccessDependencies;
  /** The tool registry with every tool (loaded on first use): approved calls run through it. */
  tools: () => Promise<ToolRegistry>;
  /** The hooks' gate and observer: an approved call still passes them. */
  gates: readonly ToolGate[];
  observers: readonly ToolObserver[];
  elapsed: () => number;
  /** Every secret known now: notices and results are masked with them. */
  secrets: Pick<Secrets, "mask">;
  /** Notices go out through the outbox (sent once, delivery recorded, failed sends retried). */
  notifier: Notifier;
  outbox: Outbox;
  /** This process, as the outbox records who claimed a notice. */
  process: { pid: number; isAlive: (pid: number) => boolean };
  /** Task firings: pruned with the decided approvals. */
  firings: Pick<TaskFirings, "prune">;
  /** The URL monitors: the pages the user watches are trusted text (absent: none). */
  monitors?: { list(): ReadonlyArray<{ url: string; enabled: boolean }> };
}

/** Builds acting while away over its stores. */
export function buildAway(input: AwayInput): AwayParts {
  const { config, clock, logger, tools, stores } = input;
  const { journal } = stores;
  const undoDeps = { ...input.files, journal, clock };
  const undo = async (id?: number) => (await fileUndoModule()).undoChange(undoDeps, id);
  const grants = new StandingGrants({
    store: stores.grants,
    configured: () =>
      config.grants.map((grant) => ({ ...grant, privateDataTo: grant.private_data_to })),
    paths: grantPathPolicy(input.files),
    clock,
    tool: async (name) => (await tools()).get(name),
  });
  const mask = (text: string) => input.secrets.mask(text);
  const notify: ApprovalNotifier = async (notice, scope) => {
    // No topic: the dashboard and `radar approvals` still ask; nothing to record as undelivered.
    if (!input.notifier.topic()) return;
    const { pid, isAlive } = input.process;
    const log = runSideEffects(input.outbox, scope, clock, pid, isAlive);
    await notifyOnce(input.notifier, log, notice, AbortSignal.timeout(20_000));
  };
  const approvals = new ApprovalService({
    store: stores.approvals,
    tokens: stores.capabilities,
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
    execute: async (record, signal) =>
      (await tools()).execute({
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
          // The yes was to the call as shown: a run that had read private data sends it nowhere else.
          mayAlsoSendTo: () => !record.privateSources?.length,
        },
        gates: input.gates,
        observers: input.observers,
        maxResultChars: config.tools.max_result_chars,
        elapsed: input.elapsed,
      }),
    undo,
    notify,
    baseUrl: () => dashboardBaseUrl(config),
    mask,
    preview: async (tool, args) =>
      (await writePreviewModule()).writePreview(input.files, tool, args),
    previewBase: async (tool, args) =>
      (await writePreviewModule()).writePreviewBase(input.files, tool, args),
  });
  const changeNotices = new ChangeNotices({
    journal,
    notify,
    undoUrl: (id) => approvals.undoUrl(id),
    mask,
    enabled: () => config.approvals.notify,
    link: () => `${dashboardBaseUrl(config)}/approvals`,
  });
  const guardParts = {
    grants: grants.check,
    trustedContext: () => [
      ...trustedConfigText(config, input.files.env),
      ...(input.monitors?.list() ?? []).filter((monitor) => monitor.enabled)
        .map((monitor) => monitor.url),
    ],
    home: () => homeDirectory(input.files.env),
  };
  return {
    away: {
      approvals,
      grants,
      journal,
      undo,
      guard: async (options) =>
        (await runGuardModule()).runGuards(
          options?.approvals === false
            ? guardParts
            : { ...guardParts, approvals: options?.approvals ?? approvals },
        ),
    },
    changeNotices,
    upkeep: new ApprovalUpkeep({
      approvals,
      firings: input.firings,
      pruneJournal: () =>
        pruneJournal(
          undoDeps,
          config.tools.files.journal_days,
          journalMaxBytes(config),
        ),
      logger,
    }),
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
 * Text the user wrote into the config that names places: watched folders, writable folders, the
 * library's layouts (up to their first template field), the money folder, the names of mail
 * accounts and calendars. A path under them is the user's choice, not text from outside. The home
 * folder itself is not one: everything is under it.
 */
function trustedConfigText(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): string[] {
  const places = [
    ...config.watchers.flatMap((watcher) => [watcher.path, watcher.pattern]),
    ...config.tools.files.writable_roots,
    ...config.tools.exec.writable_roots,
    ...[config.library.comics, config.library.documents].filter(Boolean),
    ...(config.money.folder ? [config.money.folder] : []),
    ...config.email.accounts.map((account) => account.name),
    ...config.calendar.calendars.map((calendar) => calendar.name),
  ];
  return [...places, ...places.map((place) => expandHome(place, env))];
}
