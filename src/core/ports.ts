/** Port interfaces through which the pure core reaches the world. */
import type { ChatMessage, Usage } from "./chat_model.ts";
import type { ConversationKind, ToolOutcome } from "./tool.ts";

/** Source of the current time. */
export interface Clock {
  now(): Date;
}

/** Structured log lines (stderr and the log file in production, memory in tests). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** What the loop hands the store for one message. */
export interface MessageRecord extends ChatMessage {
  createdAt: Date;
  usage?: Usage;
  durationMs?: number;
}

/** A message as stored, with its metadata. */
export interface StoredMessage extends Omit<MessageRecord, "createdAt"> {
  id: number;
  conversationId: number;
  createdAt: string;
}

/** A conversation's header. */
export interface ConversationSummary {
  id: number;
  kind: ConversationKind;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /**
   * When Radar found that its last run was killed before it finished (nothing was stored
   * since): the conversation is interrupted, not waiting for an answer.
   */
  interruptedAt?: string;
}

/** Port: the runs in progress per conversation (a killed one is found on the next start). */
export interface ConversationRuns {
  /** Records that this process runs a turn of the conversation; call the result when it ends. */
  begin(conversationId: number): () => void;
}

/** Port: persistent conversations and their messages. */
export interface ConversationStore {
  createConversation(kind: ConversationKind, title: string, at: Date): number;
  appendMessage(conversationId: number, message: MessageRecord): number;
  /** The last `limit` messages of a conversation, oldest first. */
  recentMessages(conversationId: number, limit: number): StoredMessage[];
  /** Replaces a conversation's title (a blocked first message must not stay in it). */
  retitle?(conversationId: number, title: string): void;
}

/** Categories of remembered facts. */
export const factCategories = [
  "user_preference",
  "learned_fact",
  "task_state",
  "personality_note",
] as const;

/** One category of remembered facts. */
export type FactCategory = typeof factCategories[number];

/** A remembered fact. */
export interface Fact {
  id: number;
  category: FactCategory;
  content: string;
  sourceConversationId?: number;
  createdAt: string;
  updatedAt: string;
}

/** Port: remembered facts with full-text search. */
export interface FactStore {
  addFact(
    fact: { category: FactCategory; content: string; sourceConversationId?: number },
    at: Date,
  ): number;
  searchFacts(query: string, limit: number, category?: FactCategory): Fact[];
  listFacts(options: { limit: number; offset?: number; category?: FactCategory }): Fact[];
  updateFact(id: number, content: string, at: Date): boolean;
  forgetFact(id: number): boolean;
  countFacts(): number;
}

/** One row of the tool audit trail. */
export interface AuditEntry {
  at: Date;
  conversationId?: number;
  tool: string;
  /** Arguments as the model sent them; the sink redacts secrets before storing. */
  arguments: string;
  durationMs: number;
  outcome: ToolOutcome;
  result: string;
  /** The pending approval whose yes ran this call. */
  approvalId?: number;
}

/** Port: where every tool call is recorded. */
export interface AuditSink {
  recordToolCall(entry: AuditEntry): void;
}

/** Filters for listing conversations. */
export interface ConversationQuery {
  kind?: ConversationKind;
  /** Matches title or message content (substring, case-insensitive). */
  search?: string;
  limit: number;
  offset?: number;
}

/** Which messages of a conversation to read. */
export interface MessagePage {
  /** Only messages with a larger id (0: from the start). */
  afterId?: number;
  limit?: number;
}

/** Port: conversations as the CLI's history, chat and the dashboard browse and change them. */
export interface ConversationArchive extends ConversationStore {
  /** Gives an untitled conversation its title (a no-op once it has one). */
  titleIfUntitled(conversationId: number, title: string): void;
  /**
   * A page of a conversation's messages, oldest first: after message `afterId` (from the start
   * by default), at most `limit` (and never more than the store's page cap).
   */
  messages(conversationId: number, page?: MessagePage): StoredMessage[];
  /** Every message of a conversation, oldest first, read a page at a time (exports). */
  eachMessage(conversationId: number): Iterable<StoredMessage>;
  conversation(id: number): ConversationSummary | undefined;
  /** The most recently updated conversation of a kind. */
  latest(kind: ConversationKind): ConversationSummary | undefined;
  list(query: ConversationQuery): ConversationSummary[];
  count(kind?: ConversationKind): number;
  delete(id: number): boolean;
}

/** Port: remembered facts plus lookup by id (`radar memory`, the memory page). */
export interface FactArchive extends FactStore {
  getFact(id: number): Fact | undefined;
}

/** One recorded tool call, as `radar log tools` and /logs list it. */
export interface ToolCallRecord extends Omit<AuditEntry, "at"> {
  id: number;
  at: string;
}

/** Port: the tool audit trail, written by every run, read by the CLI and the dashboard. */
export interface AuditTrail extends AuditSink {
  /** Deletes rows older than the retention; returns how many. */
  prune(): number;
  /** A conversation's tool call outcomes, oldest first. */
  outcomesOf(conversationId: number): Array<{ tool: string; outcome: ToolOutcome }>;
  list(options: { limit: number; tool?: string; failed?: boolean }): ToolCallRecord[];
}
