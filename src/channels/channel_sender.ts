/**
 * Delivery of one channel's queued messages: each due row is claimed (so two processes never send
 * it together), sent, and marked sent with the service's id, or failed with the next try after a
 * backoff (5 s, 30 s, 2, 10, 30, 60, 120 min, or the service's own retry-after), then
 * undeliverable. A question about an approval is rendered when it goes out (with fresh answer
 * keys; not at all once the approval was decided), and an edit replaces the message it names; a
 * question whose approval was decided or expired is edited to say how it ended.
 */
import type { ChatChannel, OutgoingMessage } from "../core/channel.ts";
import type { ChannelStores, OutboundRecord } from "../core/channel_stores.ts";
import type { ApprovalRecord } from "../away/mod.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { askEventKey, renderAsk, renderClosed } from "./approval_asks.ts";
import { hashKey } from "./channel_owners.ts";

/** Waits between tries of one message; past the last it is undeliverable. */
export const retryDelaysMs = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];

/** What a sender works with. */
export interface ChannelSenderParts {
  channel: ChatChannel;
  stores: ChannelStores;
  clock: Clock;
  logger: Logger;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** A pending approval by id (undefined when it is gone). */
  approval: (id: number) => ApprovalRecord | undefined;
  /** The approval's dashboard page. */
  approvalLink: (id: number) => string;
  /** An instant as people read it. */
  showTime: (iso: string) => string;
  /** Masks known secrets in text that leaves Radar. */
  mask: (text: string) => string;
}

/** Sends one channel's due messages. */
export class ChannelSender {
  #running?: Promise<number>;

  constructor(private readonly parts: ChannelSenderParts) {}

  /** Sends everything due now (one pass at a time); returns how many were sent. */
  flush(signal: AbortSignal): Promise<number> {
    this.#running ??= this.#flush(signal).finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #flush(signal: AbortSignal): Promise<number> {
    const { channel, stores, clock, pid, isAlive } = this.parts;
    this.#closeDecided();
    let sent = 0;
    while (!signal.aborted) {
      const due = stores.outbox.claimDue(channel.name, pid, isAlive, clock.now(), 10);
      if (!due.length) break;
      for (const row of due) {
        if (signal.aborted) break;
        if (await this.#send(row, signal)) sent++;
      }
    }
    return sent;
  }

  async #send(row: OutboundRecord, signal: AbortSignal): Promise<boolean> {
    const { channel, stores, clock, logger } = this.parts;
    const message = this.#message(row);
    if (typeof message === "string") {
      stores.outbox.markFailed(row.id, message, undefined, clock.now());
      return false;
    }
    const { answerHere, ...outgoing } = message;
    const result = await channel.send(
      { ...outgoing, text: this.parts.mask(message.text) },
      signal,
    );
    const now = clock.now();
    if (result.sent) {
      stores.outbox.markSent(row.id, result.externalId, now);
      // A Matrix question is answered by reacting to it, when it shows the whole call.
      if (answerHere && channel.name === "matrix" && result.externalId) {
        this.#addKey(row, askEventKey(result.externalId), "either");
      }
      stores.health.report(
        channel.name,
        { state: "connected", lastSentAt: now.toISOString() },
        now,
      );
      return true;
    }
    const error = this.parts.mask(result.error);
    const delay = result.permanent
      ? undefined
      : result.retryAfterMs ?? retryDelaysMs[row.attempts - 1];
    stores.outbox.markFailed(
      row.id,
      result.error,
      delay === undefined ? undefined : new Date(now.getTime() + delay),
      now,
    );
    stores.health.report(channel.name, { lastError: error }, now);
    logger.warn("channel message not sent", {
      channel: channel.name,
      id: row.id,
      error,
      retry: delay === undefined ? "never" : `${Math.round(delay / 1000)} s`,
    });
    return false;
  }

  /**
   * Closes the questions whose approval was decided (anywhere: this chat, another, the dashboard,
   * the CLI, the phone) or expired: each is edited once to say how it ended, without buttons.
   * Mail cannot be changed once sent: its question is closed without an edit (a late code is
   * answered with how it ended).
   */
  #closeDecided(): void {
    const { channel, stores, clock } = this.parts;
    for (const ask of stores.outbox.openAsks(channel.name)) {
      const record = this.parts.approval(ask.approvalId!);
      if (record?.state === "pending" || record?.state === "running") continue;
      const editable = record && ask.externalId && channel.name !== "email";
      stores.outbox.close(
        ask.id,
        editable
          ? {
            channel: channel.name,
            chatId: ask.chatId,
            purpose: "outcome",
            text: renderClosed(record, {
              channel: channel.name,
              maxChars: channel.maxChars,
              link: this.parts.approvalLink(record.id),
            }),
            editOf: ask.id,
            dedupeKey: `closed:${ask.id}`,
          }
          : undefined,
        clock.now(),
      );
    }
  }

  /**
   * What to send for `row`, or why nothing will be; `answerHere`: an approval's question that
   * shows the whole call (a reaction to it may answer).
   */
  #message(row: OutboundRecord): (OutgoingMessage & { answerHere?: boolean }) | string {
    const { channel, stores } = this.parts;
    const base: OutgoingMessage = {
      id: String(row.id),
      chatId: row.chatId,
      text: row.text,
      buttons: row.buttons,
      subject: row.subject,
      replyTo: row.replyTo,
    };
    if (row.editOf !== undefined) {
      const original = stores.outbox.get(row.editOf);
      if (original?.externalId) return { ...base, edit: original.externalId };
    }
    if (row.purpose !== "ask" || row.approvalId === undefined) return base;
    const record = this.parts.approval(row.approvalId);
    if (!record || record.state !== "pending") {
      return `approval #${row.approvalId} was ${
        record?.state ?? "removed"
      } before the question went out`;
    }
    const ask = renderAsk(record, {
      channel: channel.name,
      maxChars: channel.maxChars,
      link: this.parts.approvalLink(record.id),
      expires: this.parts.showTime(record.expiresAt),
    });
    for (const key of ask.keys) this.#addKey(row, key.key, key.action, record.expiresAt);
    return { ...base, text: ask.text, buttons: ask.buttons, answerHere: ask.whole };
  }

  #addKey(
    row: OutboundRecord,
    key: string,
    action: "approve" | "deny" | "either",
    expiresAt?: string,
  ): void {
    const { stores, clock, channel } = this.parts;
    const record = expiresAt ? undefined : this.parts.approval(row.approvalId!);
    stores.answers.add({
      keyHash: hashKey(key),
      channel: channel.name,
      approvalId: row.approvalId!,
      action,
      ownerId: row.ownerId ?? row.chatId,
      expiresAt: expiresAt ?? record?.expiresAt ?? clock.now().toISOString(),
    }, clock.now());
  }
}
