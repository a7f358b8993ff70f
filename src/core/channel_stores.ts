/**
 * Ports of the chat channels' storage (SQLite in `src/adapters/sqlite/channel_*.ts`): received
 * messages stored before they are handled (with the service's cursor, in one transaction), the
 * messages to send with their delivery state, who the owner is (configured, paired), strangers,
 * the conversation of each chat and person, the one-time answers to approvals, and each
 * channel's health.
 */
import type { ChannelName, OutgoingMessage, ReceivedMessage } from "./channel.ts";

/** Where a received message stands. */
export type InboundState = "pending" | "handling" | "done" | "refused" | "withdrawn" | "failed";

/** The chat turn begun for a received message (a restart resumes it). */
export interface InboundTurn {
  conversationId: number;
  /** The conversation's newest message id when the turn began (0: none). */
  after: number;
  /** The user message the model gets: the owner's words and notes on the files saved. */
  message: string;
}

/** A stored received message. */
export interface InboundRecord extends ReceivedMessage {
  id: number;
  receivedAt: string;
  state: InboundState;
  attempts: number;
  claimedBy?: number;
  handledAt?: string;
  /** What became of it ("answered", "not paired", "paired", …). */
  outcome?: string;
  /** The chat turn begun for it, if one was. */
  turn?: InboundTurn;
}

/** Port: received messages. */
export interface ChannelInbox {
  /**
   * Stores a batch (duplicates of the channel's own id are skipped) and the channel's cursor in
   * one transaction; returns how many were new.
   */
  store(
    channel: ChannelName,
    messages: readonly ReceivedMessage[],
    cursor: string | undefined,
    at: Date,
  ): number;
  /** The cursor stored with the last batch. */
  cursor(channel: ChannelName): string | undefined;
  /**
   * Takes the oldest message waiting (pending, or left `handling` by a process that is gone) for
   * process `pid`; undefined when none waits.
   */
  claim(pid: number, isAlive: (pid: number) => boolean): InboundRecord | undefined;
  /** Records the chat turn begun for a message. */
  beginTurn(id: number, turn: InboundTurn): void;
  /** Records how handling ended. */
  finish(
    id: number,
    state: Exclude<InboundState, "pending" | "handling">,
    outcome: string,
    at: Date,
  ): void;
  /** A message the sender took back before it was handled (a redaction): true when it was. */
  withdraw(channel: ChannelName, externalId: string, at: Date): boolean;
  get(id: number): InboundRecord | undefined;
  /** How many wait to be handled. */
  waiting(channel: ChannelName): number;
}

/** What an outgoing message is. */
export type OutboundPurpose = "answer" | "notice" | "ask" | "outcome" | "refusal" | "pairing";

/** Where an outgoing message stands. */
export type OutboundState = "pending" | "sending" | "sent" | "failed" | "undeliverable";

/** An outgoing message to queue: what will be sent, and how it is queued. */
export interface NewOutbound
  extends Pick<OutgoingMessage, "chatId" | "text" | "buttons" | "subject" | "replyTo"> {
  channel: ChannelName;
  purpose: OutboundPurpose;
  /** Queued once per key: a second message with the same key is not queued. */
  dedupeKey?: string;
  /** Replaces the message of that row (once it was sent) instead of sending a new one. */
  editOf?: number;
  /** The approval an `ask` asks about. */
  approvalId?: number;
  /** The one identity whose answer to an `ask` counts (the person it was sent to). */
  ownerId?: string;
}

/** A stored outgoing message. */
export interface OutboundRecord extends NewOutbound {
  id: number;
  state: OutboundState;
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
  sentAt?: string;
  lastError?: string;
  /** The service's id of the sent message (Telegram message id, Matrix event id, Message-ID). */
  externalId?: string;
  /** A question: when it was closed (its approval decided or expired). */
  closedAt?: string;
}

/** Port: messages to send, and their receipts. */
export interface ChannelOutbox {
  /** Queues a message; undefined when its dedupe key was queued before. */
  enqueue(message: NewOutbound, at: Date): number | undefined;
  /** Takes up to `limit` messages of `channel` due now for process `pid` (marked sending). */
  claimDue(
    channel: ChannelName,
    pid: number,
    isAlive: (pid: number) => boolean,
    at: Date,
    limit: number,
  ): OutboundRecord[];
  markSent(id: number, externalId: string | undefined, at: Date): void;
  /** A failed try: again at `retryAt`, or undeliverable when it is undefined. */
  markFailed(id: number, error: string, retryAt: Date | undefined, at: Date): void;
  get(id: number): OutboundRecord | undefined;
  /** Questions sent on `channel` and not closed yet (their approval may be decided since). */
  openAsks(channel: ChannelName): OutboundRecord[];
  /**
   * Closes a question once: marks it closed and queues `edit` (the question as it ended), in one
   * transaction; false when it was closed already.
   */
  close(id: number, edit: NewOutbound | undefined, at: Date): boolean;
  /** Newest first (the dashboard's receipts). */
  list(limit: number): OutboundRecord[];
  /** Messages not sent yet, and those given up on. */
  counts(channel: ChannelName): { waiting: number; undeliverable: number };
  /** When the next message of `channel` is due, if any waits. */
  nextDue(channel: ChannelName): string | undefined;
}

/** A sender who is not the owner, as remembered. */
export interface StrangerRecord {
  messages: number;
  lastRefusalAt?: string;
  failedPairings: number;
  lastFailedPairingAt?: string;
}

/** Where a conversation with the owner happens on a channel. */
export interface OwnerChat {
  chatId: string;
  senderId: string;
  conversationId: number;
}

/** Port: the owner's identities, pairing codes, strangers and conversations per chat. */
export interface ChannelPeople {
  /** Identities paired with `radar channel pair` (configured ones are not stored). */
  pairedOwners(channel: ChannelName): string[];
  /** Stores a pairing code's hash, valid until `expiresAt`. */
  addPairing(channel: ChannelName, codeHash: string, at: Date, expiresAt: Date): void;
  /** Uses a live code once: the sender becomes an owner. False when no such live code. */
  pair(channel: ChannelName, codeHash: string, userId: string, at: Date): boolean;
  /** Counts a message from a stranger; returns what is known of them. */
  stranger(channel: ChannelName, senderId: string, at: Date): StrangerRecord;
  /** Records the "not paired" reply sent to a stranger. */
  refused(channel: ChannelName, senderId: string, at: Date): void;
  /** Records a wrong pairing code from a stranger. */
  failedPairing(channel: ChannelName, senderId: string, at: Date): void;
  /** The conversation of a person in a chat. */
  conversation(channel: ChannelName, chatId: string, senderId: string): number | undefined;
  /** Sets (or replaces, for "/new") the conversation of a person in a chat. */
  setConversation(
    channel: ChannelName,
    chatId: string,
    senderId: string,
    conversationId: number,
    at: Date,
  ): void;
  /** Records a message in the person's chat (the latest one is where notices go). */
  touch(channel: ChannelName, chatId: string, senderId: string, at: Date): void;
  /** The owner's most recently used chat on `channel` among `owners`. */
  latestChat(channel: ChannelName, owners: readonly string[]): OwnerChat | undefined;
}

/** One way to answer an approval in a chat (stored as the hash of its key). */
export interface NewAnswerKey {
  keyHash: string;
  channel: ChannelName;
  approvalId: number;
  /** What the key does; `either`: the answer says (a Matrix reaction or reply). */
  action: "approve" | "deny" | "either";
  /** The one identity whose answer counts. */
  ownerId: string;
  expiresAt: string;
}

/** Port: single-use approval answers (buttons, asked messages, mail codes). */
export interface ChannelAnswerKeys {
  add(key: NewAnswerKey, at: Date): void;
  /**
   * Uses a key once: its approval and action when the key is live, unused and `senderId` is its
   * owner; every other key of that approval dies with it. Undefined otherwise (nothing changes).
   */
  use(
    keyHash: string,
    channel: ChannelName,
    senderId: string,
    at: Date,
  ): { approvalId: number; action: NewAnswerKey["action"] } | undefined;
  /** The approval a key answers (used, expired or live) when `senderId` is its owner. */
  approvalOf(keyHash: string, channel: ChannelName, senderId: string): number | undefined;
}

/** A channel's health as `radar status` and the dashboard show it. */
export interface ChannelHealthRecord {
  channel: ChannelName;
  state: "connecting" | "connected" | "failing" | "stopped";
  /** The process running it. */
  pid?: number;
  updatedAt: string;
  lastMessageAt?: string;
  lastSentAt?: string;
  lastError?: string;
  lastErrorAt?: string;
}

/** What a health report changes (absent fields keep their value). */
export type ChannelHealthPatch = Partial<
  Pick<ChannelHealthRecord, "state" | "pid" | "lastMessageAt" | "lastSentAt" | "lastError">
>;

/** Port: each channel's health. */
export interface ChannelHealth {
  report(channel: ChannelName, patch: ChannelHealthPatch, at: Date): void;
  all(): ChannelHealthRecord[];
}

/** One channel's status. */
export interface ChannelStatus extends Omit<ChannelHealthRecord, "state" | "pid" | "updatedAt"> {
  state: ChannelHealthRecord["state"] | "not started";
  updatedAt?: string;
  owners: number;
  /** Received, not handled yet. */
  waiting: number;
  /** Queued, not sent yet. */
  unsent: number;
  undeliverable: number;
  /** Named in `notifications.channels`. */
  notices: boolean;
}

/** Every channel store. */
export interface ChannelStores {
  inbox: ChannelInbox;
  outbox: ChannelOutbox;
  people: ChannelPeople;
  answers: ChannelAnswerKeys;
  health: ChannelHealth;
}
