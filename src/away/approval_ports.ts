/**
 * Pending approvals and standing grants: how a run without a person at a terminal asks for a yes
 * (the exact action is stored, the run goes on without it, the user answers later from the
 * dashboard, the CLI or the phone), and the rules the user set once ("Always allow…") that answer
 * yes to matching calls. Ports only; SQLite stores them (`sqliteAwayStores`), `approvals.ts` runs
 * them.
 */
import type { Notification } from "../core/notifier.ts";
import type { ActionJournal } from "./action_journal.ts";
import type { UnderivedPart } from "./argument_provenance.ts";
import type { ConversationKind, Destinations, Tool, ToolOutcome } from "../core/tool.ts";
import type { ChannelName } from "../core/channel.ts";

/** Where a pending approval stands. */
export type ApprovalState = "pending" | "running" | "done" | "failed" | "denied" | "expired";

/** How the user answered (`phone`: ntfy's buttons; a chat channel by its name). */
export type ApprovalChannel = "cli" | "dashboard" | "phone" | ChannelName;

/** The exact action a run wanted and why it needs a yes. */
export interface PendingAction {
  tool: string;
  /** The arguments exactly as the call had them (JSON object text). */
  arguments: string;
  conversationId?: number;
  kind: ConversationKind;
  /**
   * Why it needs a yes, in words without argument values: arguments not from the user's words,
   * private data to a place no grant covers, or the tool's own question.
   */
  reasons: string[];
  /** The parts of the call not derived from trusted text (names, never values). */
  tainted: UnderivedPart[];
  /** Untrusted inputs the run had read ("events", "tool pdf_extract"). */
  untrustedSources: string[];
  /** Which of them were private data ("tool read_file"). */
  privateSources: string[];
  /**
   * Where the call would send private data that no grant covers (origins, or anywhere); empty
   * when that is not why it asks.
   */
  destinations: Destinations;
  /** Those of `destinations` the user's own words name: the only ones a notice may show. */
  namedDestinations: string[];
  /** The run's outbox key for this request: a re-delivered run finds it instead of asking twice. */
  key?: string;
  /** What it would do, as people read it (a browser submission's page and fields). */
  summary?: string;
  /** A PNG of what it acts on (the filled page), bounded by the tool. */
  screenshot?: Uint8Array;
  /** What a file write would change, as the file was when asked (a unified diff). */
  preview?: string;
  /**
   * What the preview was taken against (`CallPreview.base`): approving refuses when that is no
   * longer so (the file changed after the diff was shown).
   */
  previewBase?: string;
}

/** What a call would change, as its approval shows it. */
export interface CallPreview {
  /** The change as people read it (a file write's unified diff). */
  text: string;
  /**
   * The state of what the change was taken against: `absent` (no file there), `sha256:HEX` (the
   * file's bytes), or undefined when it could not be read (protected, not a file).
   */
  base?: string;
}

/** A stored approval (its screenshot is read on its own: `ApprovalStore.screenshot`). */
export interface ApprovalRecord extends Omit<PendingAction, "screenshot"> {
  id: number;
  /** A screenshot was stored with it. */
  hasScreenshot: boolean;
  state: ApprovalState;
  createdAt: string;
  expiresAt: string;
  decidedAt?: string;
  decidedVia?: ApprovalChannel;
  /** What running the action returned (done or failed). */
  result?: string;
  outcome?: ToolOutcome;
  /** The standing grant "Always allow…" made from it. */
  grantId?: string;
  /**
   * The SHA-256 of the call as shown (`approval_shown.ts`), taken when it was asked: approving
   * runs it only while the stored call still has this hash. Absent on approvals stored before
   * schema 48, which never run.
   */
  shownHash?: string;
}

/** Port: the pending approvals. */
export interface ApprovalStore {
  /** Stores a pending action; with a key already used, returns that approval instead. */
  create(
    action: PendingAction & { shownHash: string },
    at: Date,
    expiresAt: Date,
  ): { record: ApprovalRecord; created: boolean };
  get(id: number): ApprovalRecord | undefined;
  /** The PNG stored with an approval, if any. */
  screenshot(id: number): Uint8Array | undefined;
  /** Newest first; `states` filters. */
  list(options: { states?: readonly ApprovalState[]; limit: number }): ApprovalRecord[];
  /** pending and not expired at `at` → running; undefined when it was not (once only). */
  claim(id: number, at: Date, via: ApprovalChannel): ApprovalRecord | undefined;
  finish(
    id: number,
    outcome: { state: "done" | "failed"; result: string; outcome: ToolOutcome },
    at: Date,
  ): void;
  /** pending → denied; false when it was not pending. */
  deny(id: number, at: Date, via: ApprovalChannel): boolean;
  /** Pending approvals past their expiry become expired; returns them. */
  expire(at: Date): ApprovalRecord[];
  /** Records the standing grant made from an approval. */
  linkGrant(id: number, grantId: string): void;
  /** Deletes decided approvals older than `before`; returns how many. */
  prune(before: Date): number;
}

/** What a capability (a button URL) may do, once. */
export type CapabilityAction = "approve" | "deny" | "undo";

/** A capability's action and target (an approval id, or an action journal id for undo). */
export interface Capability {
  action: CapabilityAction;
  target: number;
  expiresAt: string;
}

/**
 * Port: single-use, single-action, expiring capabilities. Only a hash of each secret is stored;
 * the secret exists in the one URL it was issued for.
 */
export interface CapabilityTokens {
  /** Issues a new secret for one action on one target. */
  issue(capability: Capability, at: Date): string;
  /** The capability a secret grants now, without using it (a page that shows what it does). */
  peek(secret: string, at: Date): Capability | undefined;
  /** Uses the secret: its capability, once; every other secret for the same target dies too. */
  redeem(secret: string, at: Date): Capability | undefined;
  /** Revokes every capability of a target (decided elsewhere). */
  revokeTarget(actions: CapabilityAction[], target: number, at: Date): void;
  /** Deletes capabilities that expired before `before`. */
  prune(before: Date): number;
}

/** A standing grant: a tool and glob patterns its arguments must match. */
export interface StandingGrant {
  /** "7" for a stored grant, "config:1" for the first `grants:` rule of radar.yaml. */
  id: string;
  tool: string;
  /** Argument name → glob pattern (paths with `~`); arguments not named may be anything. */
  arguments: Readonly<Record<string, string>>;
  note: string;
  /**
   * Origins a run that read private data may send it to under this grant (exactly; `mcp:NAME`,
   * `plugin:NAME`); empty: it never lets private data leave.
   */
  privateDataTo: readonly string[];
  origin: "user" | "config";
  createdAt?: string;
  /** The approval "Always allow…" made it from. */
  approvalId?: number;
  /** When it last answered yes to a call, and how often it did. */
  lastUsedAt?: string;
  uses?: number;
}

/** A new stored grant. */
export type NewStandingGrant =
  & Pick<StandingGrant, "tool" | "arguments" | "note" | "approvalId">
  & Partial<Pick<StandingGrant, "privateDataTo">>;

/** Port: the grants the user made (config rules are not stored). */
export interface GrantStore {
  add(grant: NewStandingGrant, at: Date): StandingGrant;
  list(): StandingGrant[];
  get(id: string): StandingGrant | undefined;
  /** false when there was no such grant. */
  revoke(id: string): boolean;
  recordUse(id: string, at: Date): void;
}

/** Port: how grants see paths (the file tools' own rules). */
export interface GrantPathPolicy {
  /** The real absolute path (`~` expanded, links resolved), or undefined when unusable. */
  canonical(path: string): string | undefined;
  /** Why a folder may not be under a grant (protected, holds protected places, Radar's own). */
  problem(folder: string): string | undefined;
  /** A path as people read it (`~/…`). */
  display(path: string): string;
}

/**
 * Asks whether a standing grant answers yes to a call; the grant that does, or undefined. With
 * `privateDataTo`, only a grant that also lets private data go to each of those origins.
 */
export type GrantCheck = (
  tool: Tool,
  args: Record<string, unknown>,
  privateDataTo?: readonly string[],
) => StandingGrant | undefined;

/** What a run without a person does with an action that needs a yes. */
export interface ApprovalRequests {
  /**
   * Stores the action as a pending approval and tells the user; returns its id and the line the
   * model is shown instead of a result.
   */
  request(action: PendingAction): Promise<{ id: number; text: string }>;
}

/** The stores acting while away keeps. */
export interface AwayStores {
  approvals: ApprovalStore;
  capabilities: CapabilityTokens;
  grants: GrantStore;
  journal: ActionJournal;
}

/**
 * Port: sends a notice about an approval (asked, done, failed) through the outbox under `scope`
 * (`approval:ID:ask`, `approval:ID:outcome`), so it is sent once and its delivery recorded;
 * never throws.
 */
export type ApprovalNotifier = (notice: Notification, scope: string) => Promise<void>;
