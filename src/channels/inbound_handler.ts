/**
 * What happens to one stored message. An answer to an approval is checked against its single-use
 * key (the owner's, live, unused) and decides the approval through the one approval service. A
 * stranger's message reaches no model and runs nothing: a live pairing code makes them an owner,
 * anything else gets at most one "not paired" reply a day (none by mail). The owner's message is
 * a chat turn in the conversation of that chat and person; files are saved to the inbox; the
 * answer is queued in the same transaction that marks the message handled, so it goes out once.
 */
import type { ChannelName, ChatChannel } from "../core/channel.ts";
import type {
  ChannelStores,
  InboundRecord,
  InboundTurn,
  NewOutbound,
} from "../core/channel_stores.ts";
import type { Clock, ConversationStore, Logger } from "../core/ports.ts";
import type { Transaction } from "../core/work_ports.ts";
import { fitToChannel } from "./channel_text.ts";
import { untrustedNotice, wrapUntrusted } from "../core/untrusted_text.ts";
import { firstLine } from "../core/errors.ts";
import { type ApprovalOutcome, type ApprovalRecord, outcomeLine } from "../away/mod.ts";
import { type ChannelOwners, hashKey } from "./channel_owners.ts";
import { closedLine, mailCodes } from "./approval_asks.ts";
import type { SavedFile } from "./inbox_folder.ts";

/**
 * What the approvals do for a chat (the same service as the dashboard, CLI and ntfy), recorded as
 * decided in that chat's channel.
 */
export interface ChatApprovals {
  approve(id: number, via: ChannelName): Promise<ApprovalOutcome>;
  deny(id: number, via: ChannelName): ApprovalOutcome;
  /** One approval (undefined when it is gone). */
  show(id: number): ApprovalRecord | undefined;
}

/**
 * One chat turn: the model's answer to `message` in `conversationId`; `stored`: an interrupted
 * run stored the message already (the run resumes after it).
 */
export type ChatTurn = (turn: {
  conversationId: number;
  message: string;
  stored: boolean;
  record: InboundRecord;
  signal: AbortSignal;
}) => Promise<string>;

/** What the handler works with. */
export interface InboundHandlerParts {
  stores: ChannelStores;
  owners: ChannelOwners;
  channel: (name: ChannelName) => ChatChannel | undefined;
  conversations: Pick<ConversationStore, "createConversation" | "recentMessages">;
  turn: ChatTurn;
  approvals: ChatApprovals;
  /** Saves an attachment to the inbox folder (and queues its event when `announce`). */
  saveFile: (
    record: InboundRecord,
    name: string,
    bytes: Uint8Array,
    announce: boolean,
  ) => SavedFile;
  maxAttachmentBytes: number;
  /** Where the whole of a cut answer can be read (a conversation's dashboard page). */
  conversationLink: (id: number) => string;
  transaction: Transaction;
  clock: Clock;
  logger: Logger;
}

/** A stranger hears "not paired" at most this often. */
const refusalEveryMs = 24 * 3_600_000;
/** The newest messages of a conversation looked through for a resumed turn's message. */
const resumeWindow = 200;
/** Wrong pairing codes a stranger may send before the rest are ignored. */
const maxFailedPairings = 5;

/** The reply to a stranger (the only words a stranger ever gets). */
export const notPairedReply =
  "This is a private assistant: it does not answer you, and nothing you send is done. " +
  "Its owner can pair a new account with `radar channel pair`.";

/** Handles stored messages, one at a time. */
export class InboundHandler {
  constructor(private readonly parts: InboundHandlerParts) {}

  /** Handles one claimed message; never throws (a failure is recorded on the message). */
  async handle(record: InboundRecord, signal: AbortSignal): Promise<void> {
    const { stores, clock, logger } = this.parts;
    try {
      const outcome = await this.#handle(record, signal);
      if (outcome) stores.inbox.finish(record.id, outcome.state, outcome.text, clock.now());
    } catch (error) {
      if (signal.aborted) return; // handled again by the next start
      const line = firstLine(error);
      logger.warn("channel message not handled", {
        channel: record.channel,
        id: record.id,
        error: line,
      });
      this.parts.transaction(() => {
        this.#reply(record, `Sorry, that did not work: ${line}`, "answer", `failed:${record.id}`);
        stores.inbox.finish(record.id, "failed", line, clock.now());
      });
    }
  }

  async #handle(
    record: InboundRecord,
    signal: AbortSignal,
  ): Promise<{ state: "done" | "refused"; text: string } | undefined> {
    const { owners, clock, stores } = this.parts;
    stores.health.report(record.channel, { lastMessageAt: clock.now().toISOString() }, clock.now());
    const owner = record.verified && owners.isOwner(record.channel, record.senderId);
    if (record.answer) return await this.#answer(record, owner, signal);
    if (!owner) return this.#stranger(record);
    const codes = record.channel === "email" ? mailCodes(record.text) : [];
    if (codes.length) return await this.#mailAnswer(record, codes);
    if (/^\/new\b/i.test(record.text.trim())) return this.#newConversation(record);
    return await this.#turn(record, signal);
  }

  /** A button, reaction or reply answering an approval. */
  async #answer(record: InboundRecord, owner: boolean, signal: AbortSignal) {
    const answer = record.answer!;
    const channel = this.parts.channel(record.channel);
    if (!owner) {
      await channel?.acknowledge?.(answer, "Not yours to answer.", signal);
      return { state: "refused" as const, text: "an answer from someone who is not the owner" };
    }
    const key = record.channel === "matrix" ? `event:${answer.key}` : answer.key;
    const used = this.parts.stores.answers.use(
      hashKey(key),
      record.channel,
      record.senderId,
      this.parts.clock.now(),
    );
    if (!used) {
      const late = this.#tooLate(hashKey(key), record, "This question");
      await channel?.acknowledge?.(answer, late, signal);
      if (record.channel !== "telegram") {
        this.#reply(record, `${late} Nothing was done now.`, "outcome", `answer:${record.id}`);
      }
      return {
        state: "done" as const,
        text: "an answer that was used, expired or not the owner's",
      };
    }
    const action = used.action === "either" ? answer.action ?? "approve" : used.action;
    const text = await this.#decide(record.channel, used.approvalId, action);
    await channel?.acknowledge?.(answer, text.slice(0, 180), signal);
    this.#reply(record, text, "outcome", `answer:${record.id}`);
    return { state: "done" as const, text: `${action} #${used.approvalId}` };
  }

  /** The owner's mail answering with an approval code. */
  async #mailAnswer(record: InboundRecord, codes: string[]) {
    const { stores, clock } = this.parts;
    const lines: string[] = [];
    const late: string[] = [];
    for (const code of codes) {
      const used = stores.answers.use(hashKey(code), "email", record.senderId, clock.now());
      if (!used) late.push(this.#tooLate(hashKey(code), record, `The code ${code}`));
      if (!used || used.action === "either") continue;
      lines.push(await this.#decide("email", used.approvalId, used.action));
    }
    const text = lines.length
      ? lines.join("\n")
      : `${[...new Set(late)].join("\n")}\nNothing was done now.`;
    this.#reply(record, text, "outcome", `answer:${record.id}`);
    return {
      state: "done" as const,
      text: lines.length ? "approval answered by mail" : "a used or expired code",
    };
  }

  /** Why an answer key did nothing: how its approval ended, when the key is the sender's. */
  #tooLate(keyHash: string, record: InboundRecord, what: string): string {
    const id = this.parts.stores.answers.approvalOf(keyHash, record.channel, record.senderId);
    const approval = id === undefined ? undefined : this.parts.approvals.show(id);
    if (!approval || approval.state === "pending") {
      return `${what} was answered already or has expired.`;
    }
    return `Too late for approval #${approval.id}. ${closedLine(approval)}`;
  }

  async #decide(
    via: ChannelName,
    approvalId: number,
    action: "approve" | "deny",
  ): Promise<string> {
    const { approvals } = this.parts;
    return outcomeLine(
      action === "deny"
        ? approvals.deny(approvalId, via)
        : await approvals.approve(approvalId, via),
    );
  }

  /** A stranger: a pairing code, or at most one "not paired" reply a day. */
  #stranger(record: InboundRecord) {
    const { owners, stores, clock, logger } = this.parts;
    const now = clock.now();
    const known = stores.people.stranger(record.channel, record.senderId, now);
    if (!record.verified) return { state: "refused" as const, text: "not verified" };
    if (known.failedPairings < maxFailedPairings) {
      if (owners.tryPairing(record.channel, record.senderId, record.text, now)) {
        logger.info("channel paired", { channel: record.channel, user: record.senderId });
        this.#reply(
          record,
          "Paired: you can talk to Radar here now.",
          "pairing",
          `pair:${record.id}`,
        );
        return { state: "done" as const, text: "paired" };
      }
      if (owners.looksLikeCode(record.text)) {
        stores.people.failedPairing(record.channel, record.senderId, now);
      }
    }
    const last = known.lastRefusalAt ? new Date(known.lastRefusalAt).getTime() : 0;
    if (record.channel !== "email" && now.getTime() - last >= refusalEveryMs) {
      this.parts.transaction(() => {
        this.#reply(record, notPairedReply, "refusal", `refusal:${record.id}`);
        stores.people.refused(record.channel, record.senderId, now);
      });
    }
    logger.info("channel message from a stranger refused", {
      channel: record.channel,
      sender: record.senderId,
    });
    return { state: "refused" as const, text: "not paired" };
  }

  #newConversation(record: InboundRecord) {
    const { stores, clock } = this.parts;
    const id = this.parts.conversations.createConversation(
      "chat",
      titleOf(record, ""),
      clock.now(),
    );
    this.parts.transaction(() => {
      stores.people.setConversation(
        record.channel,
        record.chatId,
        record.senderId,
        id,
        clock.now(),
      );
      this.#reply(record, "Started a new conversation.", "answer", `answer:${record.id}`);
    });
    return { state: "done" as const, text: "new conversation" };
  }

  /**
   * The owner's words (and files) as a chat turn; the answer queued as the message is closed.
   * The turn is recorded before the model runs, so after a restart it resumes: the files are not
   * saved again, and the message is not stored again when the interrupted run had stored it.
   */
  async #turn(record: InboundRecord, signal: AbortSignal) {
    const { stores, clock } = this.parts;
    const turn = record.turn ?? await this.#beginTurn(record, signal);
    if (!turn) return { state: "done" as const, text: "files saved" };
    const answer = await this.parts.turn({
      conversationId: turn.conversationId,
      message: turn.message,
      stored: this.#stored(turn),
      record,
      signal,
    });
    if (signal.aborted) return undefined;
    const channel = this.parts.channel(record.channel);
    const parts = fitToChannel(
      answer,
      channel ?? { maxChars: 4096, maxParts: 8 },
      this.parts.conversationLink(turn.conversationId),
    );
    this.parts.transaction(() => {
      parts.forEach((part, index) =>
        this.#reply(record, part, "answer", `answer:${record.id}:${index}`)
      );
      stores.people.touch(record.channel, record.chatId, record.senderId, clock.now());
      stores.inbox.finish(record.id, "done", "answered", clock.now());
    });
    return undefined;
  }

  /**
   * Saves the files and records the turn (the message the model gets); undefined for files sent
   * without words (filed like a watched folder's; the owner is told where they went).
   */
  async #beginTurn(record: InboundRecord, signal: AbortSignal): Promise<InboundTurn | undefined> {
    const conversationId = this.#conversation(record);
    const notes = await this.#files(record, signal);
    const words = record.forwardedFrom
      ? `${
        wrapUntrusted(record.text, { source: `message forwarded from ${record.forwardedFrom}` })
      }\n${untrustedNotice}`
      : record.text;
    if (!words.trim()) {
      this.#reply(
        record,
        notes.join("\n") || "(nothing to read in that message)",
        "answer",
        `answer:${record.id}`,
      );
      return undefined;
    }
    const newest = this.parts.conversations.recentMessages(conversationId, 1)[0];
    const turn = {
      conversationId,
      after: newest?.id ?? 0,
      message: [words, ...notes.map((note) => `[${note}]`)].join("\n\n"),
    };
    this.parts.stores.inbox.beginTurn(record.id, turn);
    return turn;
  }

  /** Whether the turn's message is in its conversation already (stored by an interrupted run). */
  #stored(turn: InboundTurn): boolean {
    return this.parts.conversations.recentMessages(turn.conversationId, resumeWindow)
      .some((message) =>
        message.id > turn.after && message.role === "user" && message.content === turn.message
      );
  }

  /** The conversation of this chat and person (a new one the first time). */
  #conversation(record: InboundRecord): number {
    const { stores, clock } = this.parts;
    const known = stores.people.conversation(record.channel, record.chatId, record.senderId);
    if (known !== undefined) return known;
    const id = this.parts.conversations.createConversation(
      "chat",
      titleOf(record, record.text),
      clock.now(),
    );
    stores.people.setConversation(record.channel, record.chatId, record.senderId, id, clock.now());
    return id;
  }

  /** Saves the message's files to the inbox; one note per file for the model and the owner. */
  async #files(record: InboundRecord, signal: AbortSignal): Promise<string[]> {
    const channel = this.parts.channel(record.channel);
    const notes: string[] = [];
    for (const attachment of record.attachments) {
      try {
        if (!channel) throw new Error(`${record.channel} is not running`);
        const bytes = await channel.download(attachment, this.parts.maxAttachmentBytes, signal);
        // With words, the owner asks about the file now; alone, it is filed like any new file.
        const saved = this.parts.saveFile(record, attachment.name, bytes, !record.text.trim());
        notes.push(`Saved ${attachment.name} to the inbox: ${saved.path}`);
      } catch (error) {
        notes.push(`Could not save ${attachment.name}: ${firstLine(error)}`);
      }
    }
    return notes;
  }

  /** Queues a reply in the message's chat (once per key). */
  #reply(record: InboundRecord, text: string, purpose: NewOutbound["purpose"], key: string): void {
    this.parts.stores.outbox.enqueue({
      channel: record.channel,
      chatId: record.chatId,
      text,
      purpose,
      dedupeKey: key,
      subject: record.thread?.subject ? reSubject(record.thread.subject) : undefined,
      replyTo: record.channel === "email" ? record.thread?.messageId : undefined,
      ownerId: record.senderId,
    }, this.parts.clock.now());
  }
}

function reSubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

/** A conversation's title: the channel and the first words. */
function titleOf(record: InboundRecord, text: string): string {
  const name = record.channel[0].toUpperCase() + record.channel.slice(1);
  const words = text.replace(/\s+/g, " ").trim().slice(0, 60);
  return words ? `${name}: ${words}` : `${name} chat`;
}
