/**
 * Pending approvals: a run without a person stores the exact action that needs a yes and goes on
 * without it; the user answers from the dashboard, `radar approvals`, or the phone (ntfy buttons
 * whose URLs carry a single-use capability: Deny is one tap, Approve opens its page, which shows
 * the whole call to a browser logged in to the dashboard before the yes). Approving runs exactly
 * the stored call — the model is not asked again — while it is still what was shown (a file
 * write's file too), records the result in the run's conversation and the audit trail, and tells
 * the user how it went (with an Undo button when it changed files). Approvals expire unanswered.
 */
import { type ActionJournal, undoable } from "./action_journal.ts";
import type {
  ApprovalChannel,
  ApprovalNotifier,
  ApprovalRecord,
  ApprovalRequests,
  ApprovalStore,
  CallPreview,
  Capability,
  CapabilityTokens,
  PendingAction,
} from "./approval_ports.ts";
import type { Notification, NotificationButton } from "../core/notifier.ts";
import { firstLine, NotFoundError, UsageError } from "../core/errors.ts";
import { formatDateTime } from "../core/zoned_time.ts";
import type { AuditSink, Clock, ConversationStore, Logger } from "../core/ports.ts";
import { parseArgumentsText, type ToolExecution } from "../core/tool_registry.ts";
import type { StandingGrants } from "./standing_grants.ts";
import type { UndoResult } from "./file_undo.ts";
import { shownHash, unlikeShown } from "./approval_shown.ts";
import {
  askLines,
  changeLine,
  type NoticeFacts,
  noticeReason,
  outcomeLine as noticeOutcomeLine,
} from "./notice_text.ts";

/** What the approvals run on. */
export interface ApprovalServiceParts {
  store: ApprovalStore;
  tokens: CapabilityTokens;
  grants: StandingGrants;
  journal: ActionJournal;
  conversations: Pick<ConversationStore, "appendMessage">;
  audit: AuditSink;
  clock: Clock;
  logger: Logger;
  settings: () => { expireHours: number; notify: boolean; timeZone?: string };
  /** Runs a stored call as the user's yes (hooks still apply; the user's yes answers questions). */
  execute(record: ApprovalRecord, signal: AbortSignal): Promise<ToolExecution>;
  /** Undoes a journaled change (the Undo button). */
  undo(journalId: number): Promise<UndoResult>;
  /** Sends notices; absent: none are sent. */
  notify?: ApprovalNotifier;
  /** The dashboard's address as the phone reaches it (`web.public_url`, else host and port). */
  baseUrl: () => string;
  /** Masks known secrets in text that leaves the machine (notices). */
  mask: (text: string) => string;
  /**
   * What a call would change, shown with it (a file write's diff), and what that was taken
   * against; absent: nothing more.
   */
  preview?(tool: string, args: Record<string, unknown>): Promise<CallPreview | undefined>;
  /** The state now of what a call's preview is taken against (as `CallPreview.base`). */
  previewBase?(tool: string, args: Record<string, unknown>): Promise<string | undefined>;
}

/**
 * What approving or denying did: done or failed, it ran; denied, nothing runs; not_pending, it
 * was decided, running or expired before (`record.state` says which) and nothing was done now;
 * changed, it is not what was shown (`approval_shown.ts`) and nothing was done.
 */
export interface ApprovalOutcome {
  record: ApprovalRecord;
  state: "done" | "failed" | "denied" | "not_pending" | "changed";
  text: string;
}

/**
 * What a phone button did, or why it did nothing (spent: expired or used already; unseen: an
 * Approve pressed without the page that shows the whole call, which stays usable).
 */
export type ButtonOutcome =
  | { ok: true; text: string }
  | {
    ok: false;
    why: "spent" | "not_pending" | "failed" | "not_undone" | "changed" | "unseen";
    text: string;
  };

/** How long an Undo button works. */
const undoButtonDays = 7;

/** The pending approvals (implements the agent loop's `ApprovalRequests`). */
export class ApprovalService implements ApprovalRequests {
  constructor(private readonly parts: ApprovalServiceParts) {}

  /** Stores a pending action and asks the user (once per outbox key). */
  async request(action: PendingAction): Promise<{ id: number; text: string }> {
    const { store, clock, settings, notify } = this.parts;
    const preview: CallPreview | undefined = action.preview !== undefined
      ? { text: action.preview, base: action.previewBase }
      : await this.parts.preview?.(action.tool, parseArguments(action.arguments))
        .catch(() => undefined);
    const shown = {
      ...action,
      ...(preview === undefined ? {} : { preview: preview.text }),
      ...(preview?.base === undefined ? {} : { previewBase: preview.base }),
    };
    const now = clock.now();
    const { record, created } = store.create(
      { ...shown, shownHash: await shownHash(shown) },
      now,
      new Date(now.getTime() + settings().expireHours * 3_600_000),
    );
    if (created && notify && settings().notify) {
      await notify(this.#askNotice(record), `approval:${record.id}:ask`);
    }
    const waiting = record.state === "pending"
      ? `Not done yet: it needs the user's yes (approval #${record.id}: ${
        record.reasons.join("; ")
      }). The user was asked; it runs when they approve. Do not retry or work around it; say ` +
        `that it waits for approval #${record.id}.`
      : `Approval #${record.id} for this was ${record.state} already; not asked again.`;
    return { id: record.id, text: waiting };
  }

  /** Approvals, newest first (expired ones are marked first). */
  list(options: { pendingOnly?: boolean; limit?: number } = {}): ApprovalRecord[] {
    this.#expireIfWritable();
    return this.parts.store.list({
      states: options.pendingOnly ? ["pending"] : undefined,
      limit: options.limit ?? 50,
    });
  }

  /** One approval; NotFoundError when there is none. */
  show(id: number): ApprovalRecord {
    this.#expireIfWritable();
    const record = this.parts.store.get(id);
    if (!record) throw new NotFoundError(`No approval #${id}`);
    return record;
  }

  /** The screenshot stored with an approval (a browser submission's filled page), if any. */
  screenshot(id: number): Uint8Array | undefined {
    return this.parts.store.screenshot(id);
  }

  /**
   * Runs the stored action, once, when it is still what was shown (and, with `seen`, what the
   * page the yes came from showed: the hash it carried); records and reports the result.
   */
  async approve(
    id: number,
    via: ApprovalChannel,
    signal = new AbortController().signal,
    seen?: string,
  ): Promise<ApprovalOutcome> {
    const { store, clock, tokens } = this.parts;
    const current = this.show(id);
    const unlike = current.state === "pending" ? await this.#unlike(current, seen) : undefined;
    if (unlike) return { record: current, state: "changed", text: unlike };
    const record = store.claim(id, clock.now(), via);
    if (!record) {
      return { record: current, state: "not_pending", text: notPending(current) };
    }
    tokens.revokeTarget(["approve", "deny"], id, clock.now());
    let execution: ToolExecution;
    try {
      execution = await this.parts.execute(record, signal);
    } catch (error) {
      const message = firstLine(error);
      execution = {
        callId: `approval_${id}`,
        name: record.tool,
        argumentsText: record.arguments,
        result: { text: `${record.tool} failed: ${message}`, outcome: "error" },
        durationMs: 0,
      };
    }
    const state = execution.result.outcome === "ok" ? "done" : "failed";
    store.finish(
      id,
      { state, result: execution.result.text, outcome: execution.result.outcome },
      clock.now(),
    );
    this.#record(record, execution, via);
    const finished = store.get(id)!;
    await this.parts.notify?.(this.#outcomeNotice(finished), `approval:${id}:outcome`);
    return { record: finished, state, text: execution.result.text };
  }

  /** Denies a pending approval (nothing runs). */
  deny(id: number, via: ApprovalChannel): ApprovalOutcome {
    const { store, clock, tokens } = this.parts;
    const current = this.show(id);
    if (!store.deny(id, clock.now(), via)) {
      return { record: current, state: "not_pending", text: notPending(current) };
    }
    tokens.revokeTarget(["approve", "deny"], id, clock.now());
    this.#note(current, `The user denied approval #${id} (${current.tool}); it was not done.`);
    return { record: store.get(id)!, state: "denied", text: `Denied approval #${id}.` };
  }

  /**
   * "Always allow…": stores a grant from the approval (the suggested patterns, or `patterns`;
   * private data only to the places this call would have sent it, never wider), then approves it
   * if it still waits. A UsageError says what is wrong with the grant.
   */
  async alwaysAllow(
    id: number,
    via: ApprovalChannel,
    patterns?: Record<string, string>,
    note = "",
    seen?: string,
  ): Promise<ApprovalOutcome & { grantId: string }> {
    const record = this.show(id);
    const unlike = record.state === "pending" ? await this.#unlike(record, seen) : undefined;
    if (unlike) throw new UsageError(unlike);
    const grant = await this.parts.grants.add({
      tool: record.tool,
      arguments: patterns ?? await this.suggest(record),
      note: note || `from approval #${id}`,
      approvalId: id,
      privateDataTo: suggestedPrivateDataTo(record),
    });
    this.parts.store.linkGrant(id, grant.id);
    const outcome = record.state === "pending"
      ? await this.approve(id, via, undefined, seen)
      : { record, state: "not_pending" as const, text: notPending(record) };
    return { ...outcome, grantId: grant.id };
  }

  /** The grant patterns "Always allow…" suggests for an approval. */
  suggest(record: ApprovalRecord): Promise<Record<string, string>> {
    return this.parts.grants.suggest(record.tool, parseArguments(record.arguments));
  }

  /**
   * What a capability secret may do now (a page shows it before the POST), without using it: the
   * button's URL travels through the notification server, so the page says no more than the
   * notice did — the tool and why, never the call's values (those are shown after login).
   */
  peek(secret: string): { capability: Capability; summary: string } | undefined {
    const capability = this.parts.tokens.peek(secret, this.parts.clock.now());
    if (!capability) return undefined;
    if (capability.action === "undo") {
      const entry = this.parts.journal.get(capability.target);
      return entry && { capability, summary: `Undo change #${entry.id}: ${changeLine(entry)}` };
    }
    const record = this.parts.store.get(capability.target);
    return record && {
      capability,
      summary: `${capability.action === "approve" ? "Approve" : "Deny"} #${record.id}: ${
        noticeFacts(record).tool
      }: ${noticeReason(noticeFacts(record), named(record))}`,
    };
  }

  /**
   * Uses a capability secret (a button's POST): its one action, once. `seen`: the shown hash the
   * button's page carried when a browser logged in to the dashboard was shown the whole call
   * there. Approve runs only with it (and only when it is this approval's and the call is still
   * what was shown); without it the button is not used up. Deny and Undo need none.
   */
  async redeem(secret: string, seen?: string): Promise<ButtonOutcome> {
    // The answer goes back to whoever pressed (the button's URL came through the notification
    // server): how it went, never the call's result or the paths it touched.
    const { tokens, clock } = this.parts;
    const peeked = tokens.peek(secret, clock.now());
    const asked = peeked?.action === "approve" ? this.parts.store.get(peeked.target) : undefined;
    if (asked?.state === "pending") {
      if (seen === undefined) {
        return {
          ok: false,
          why: "unseen",
          text: `Not approved: open the button's page and log in to the dashboard there; it ` +
            `shows the whole call of #${asked.id} before you approve it.`,
        };
      }
      const unlike = await this.#unlike(asked, seen);
      if (unlike) return { ok: false, why: "changed", text: unlike };
    }
    const capability = tokens.redeem(secret, clock.now());
    if (!capability) {
      return { ok: false, why: "spent", text: "This button has expired or was used already." };
    }
    if (capability.action === "undo") {
      const undone = await this.parts.undo(capability.target);
      return undone.ok
        ? { ok: true, text: `Undone: change #${capability.target} is back as it was.` }
        : {
          ok: false,
          why: "not_undone",
          text: `Not undone: change #${capability.target}; why is on the dashboard.`,
        };
    }
    if (capability.action === "deny") {
      return { ok: true, text: this.deny(capability.target, "phone").text };
    }
    const outcome = await this.approve(capability.target, "phone", undefined, seen);
    const text = outcome.state === "done" || outcome.state === "failed"
      ? `${outcome.state === "done" ? "Done" : "Failed"} (#${outcome.record.id}): ${
        noticeOutcomeLine(outcome.state === "done")
      }`
      : outcome.text;
    if (outcome.state === "done") return { ok: true, text };
    const why = outcome.state === "failed" || outcome.state === "changed"
      ? outcome.state
      : "not_pending";
    return { ok: false, why, text };
  }

  /** Marks unanswered approvals past their expiry; returns how many. */
  expire(): number {
    const { store, tokens, clock } = this.parts;
    const expired = store.expire(clock.now());
    for (const record of expired) {
      tokens.revokeTarget(["approve", "deny"], record.id, clock.now());
      this.#note(record, `Approval #${record.id} (${record.tool}) expired unanswered; not done.`);
    }
    if (expired.length) this.parts.logger.info("approvals expired", { count: expired.length });
    return expired.length;
  }

  /**
   * Why `record` may not run now, in one line, or undefined: it is not what was shown
   * (`unlikeShown`), or the file its change was shown against is no longer as it was.
   */
  async #unlike(record: ApprovalRecord, seen?: string): Promise<string | undefined> {
    const unlike = await unlikeShown(record, seen);
    if (unlike || record.previewBase === undefined || !this.parts.previewBase) return unlike;
    const now = await this.parts.previewBase(record.tool, parseArguments(record.arguments))
      .catch(() => undefined);
    if (now === record.previewBase) return undefined;
    const was = record.previewBase === "absent" ? "did not exist yet" : "was different";
    return `Approval #${record.id} was not run: the file it writes ${was} when its change was ` +
      "shown; deny it, and look at the file first.";
  }

  /** Expires what is due; a read-only database (`radar status` on a copy) lists as stored. */
  #expireIfWritable(): void {
    try {
      this.expire();
    } catch (error) {
      this.parts.logger.debug("cannot mark expired approvals", {
        error: (error as Error).message,
      });
    }
  }

  /** Deletes capabilities that expired, and decided approvals older than `days`. */
  prune(days: number): void {
    const { store, tokens, clock } = this.parts;
    tokens.prune(clock.now());
    store.prune(new Date(clock.now().getTime() - days * 86_400_000));
  }

  /** The question, with fresh Approve and Deny capabilities. */
  #askNotice(record: ApprovalRecord): Notification {
    const { tokens, clock } = this.parts;
    // Approve opens its page (the whole call, to a browser logged in to the dashboard, before
    // the yes); Deny runs nothing, so one tap does it.
    const button = (label: string, action: "approve" | "deny"): NotificationButton => ({
      label,
      url: this.#capabilityUrl(
        tokens.issue({ action, target: record.id, expiresAt: record.expiresAt }, clock.now()),
      ),
      tap: action === "approve" ? "open" : "post",
    });
    const expires = formatDateTime(new Date(record.expiresAt), this.parts.settings().timeZone, {
      zone: true,
    });
    return {
      title: `Radar asks: ${record.tool} (#${record.id})`,
      message: this.parts.mask(askLines(noticeFacts(record), named(record), expires).join("\n")),
      priority: "default",
      click: `${this.#base()}/approvals/${record.id}`,
      buttons: [button("Approve", "approve"), button("Deny", "deny")],
      approval: record.id,
    };
  }

  /** How an approved action went, with an Undo button when it changed files. */
  #outcomeNotice(record: ApprovalRecord): Notification {
    const done = record.state === "done";
    const changes = this.parts.journal.forApproval(record.id).filter(undoable);
    return {
      title: `${done ? "Done" : "Failed"}: ${record.tool} (#${record.id})`,
      message: noticeOutcomeLine(done),
      priority: done ? "default" : "high",
      click: `${this.#base()}/approvals/${record.id}`,
      buttons: changes.slice(0, 1).map((entry) => ({ label: "Undo", url: this.undoUrl(entry.id) })),
    };
  }

  /**
   * The notice to send again for a failed send under `key` (with fresh capabilities), or
   * undefined when it no longer applies (decided meanwhile, or not an approval's notice).
   */
  renotice(key: string): Notification | undefined {
    const match = /^approval:(\d+):(ask|outcome):/.exec(key);
    if (!match) return undefined;
    const record = this.parts.store.get(Number(match[1]));
    if (!record) return undefined;
    if (match[2] === "ask") return record.state === "pending" ? this.#askNotice(record) : undefined;
    return record.state === "done" || record.state === "failed"
      ? this.#outcomeNotice(record)
      : undefined;
  }

  /** Records the approved call in its run's conversation and in the audit trail. */
  #record(record: ApprovalRecord, execution: ToolExecution, via: ApprovalChannel): void {
    const { conversations, audit, clock } = this.parts;
    const callId = `approval_${record.id}`;
    audit.recordToolCall({
      at: clock.now(),
      conversationId: record.conversationId,
      tool: record.tool,
      arguments: record.arguments,
      durationMs: execution.durationMs,
      outcome: execution.result.outcome,
      result: execution.result.text,
      approvalId: record.id,
    });
    if (record.conversationId === undefined) return;
    try {
      conversations.appendMessage(record.conversationId, {
        role: "assistant",
        content: `The user approved #${record.id} (${channelWords[via]}); running it as stored.`,
        toolCalls: [{ id: callId, name: record.tool, arguments: record.arguments }],
        // The call was written by a run that had read these: its arguments may hold them.
        readFrom: { untrusted: record.untrustedSources, private: record.privateSources ?? [] },
        createdAt: clock.now(),
      });
      conversations.appendMessage(record.conversationId, {
        role: "tool",
        content: execution.result.text,
        toolCallId: callId,
        toolName: record.tool,
        createdAt: clock.now(),
      });
    } catch (error) {
      this.parts.logger.warn("cannot record an approved call in its conversation", {
        approval: record.id,
        error: (error as Error).message,
      });
    }
  }

  #note(record: ApprovalRecord, text: string): void {
    if (record.conversationId === undefined) return;
    try {
      this.parts.conversations.appendMessage(record.conversationId, {
        role: "assistant",
        content: text,
        createdAt: this.parts.clock.now(),
      });
    } catch { /* the conversation was deleted */ }
  }

  /** A single-use Undo button URL for journal entry `id` (works for a week). */
  undoUrl(id: number): string {
    const { tokens, clock } = this.parts;
    const until = new Date(clock.now().getTime() + undoButtonDays * 86_400_000).toISOString();
    return this.#capabilityUrl(
      tokens.issue({ action: "undo", target: id, expiresAt: until }, clock.now()),
    );
  }

  #base(): string {
    return this.parts.baseUrl().replace(/\/+$/, "");
  }

  #capabilityUrl(secret: string): string {
    return `${this.#base()}/act/${secret}`;
  }
}

const channelWords: Record<ApprovalChannel, string> = {
  cli: "with radar approvals approve",
  dashboard: "on the dashboard",
  phone: "from the phone",
  telegram: "in Telegram",
  matrix: "in Matrix",
  email: "by mail",
};

/** Where an approval was decided, as people read it ("in Telegram", "on the dashboard"). */
export function decidedWhere(via: ApprovalChannel): string {
  return channelWords[via];
}

/** Why an approval cannot be decided again. */
function notPending(record: ApprovalRecord): string {
  return `Approval #${record.id} is ${record.state}${
    record.decidedVia ? ` (${channelWords[record.decidedVia]})` : ""
  }; nothing was done now.`;
}

/** One line for an approval's outcome. */
export function outcomeLine(outcome: ApprovalOutcome): string {
  if (outcome.state !== "done" && outcome.state !== "failed") return outcome.text;
  return `${outcome.state === "done" ? "Done" : "Failed"} (#${outcome.record.id}): ${outcome.text}`;
}

/** The arguments object of a stored call ({} when it is not one). */
export function parseArguments(text: string): Record<string, unknown> {
  const parsed = parseArgumentsText(text);
  return parsed.ok ? parsed.value : {};
}

/** A call as people read it: `move_file source=~/a.pdf destination=~/Filed/a.pdf`. */
export function describeCall(tool: string, argumentsText: string): string {
  const args = parseArguments(argumentsText);
  const parts = Object.entries(args).map(([name, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const flat = text.replace(/\s+/g, " ");
    return `${name}=${flat.length > 160 ? `${flat.slice(0, 157)}…` : flat}`;
  });
  return [tool, ...parts].join(" ");
}

/**
 * What an approval would do, as people read it: its summary when the tool gave one (a browser
 * submission's page and fields, passwords masked), else the call.
 */
export function describeApproval(record: Pick<ApprovalRecord, "tool" | "arguments" | "summary">) {
  return record.summary ?? describeCall(record.tool, record.arguments);
}

/** Checks an approval id given by a person. */
export function approvalId(text: string): number {
  if (!/^#?\d{1,12}$/.test(text.trim())) {
    throw new UsageError(`An approval id is a number like 7, not "${text}"`);
  }
  return Number(text.trim().replace("#", ""));
}

/** What a notice may know of an approval (no values). */
function noticeFacts(record: ApprovalRecord): NoticeFacts {
  return {
    tool: record.tool,
    kind: record.kind,
    destinations: record.destinations ?? [],
    underived: record.tainted.length,
    untrustedSources: record.untrustedSources,
    privateSources: record.privateSources ?? [],
  };
}

/** Whether a notice may show a place: only one the user's own words named. */
function named(record: ApprovalRecord): (origin: string) => boolean {
  const shown = new Set(record.namedDestinations ?? []);
  return (origin) => shown.has(origin);
}

/**
 * The places "Always allow…" lets private data go to: exactly those this call would have sent it
 * to, and only when that is why it asked (never "anywhere": no grant covers that).
 */
export function suggestedPrivateDataTo(record: Pick<ApprovalRecord, "destinations">): string[] {
  const destinations = record.destinations ?? [];
  return destinations === "anywhere" ? [] : [...destinations];
}
