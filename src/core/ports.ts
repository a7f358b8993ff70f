/** Port interfaces through which the pure core reaches the world. */
import type { ChatMessage, Usage } from "./messages.ts";
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

/** A message as stored, with its metadata. */
export interface StoredMessage extends ChatMessage {
  id: number;
  conversationId: number;
  createdAt: string;
  usage?: Usage;
  durationMs?: number;
}

/** What the loop hands the store for one message. */
export interface MessageRecord extends ChatMessage {
  createdAt: Date;
  usage?: Usage;
  durationMs?: number;
}

/** A conversation's header. */
export interface ConversationSummary {
  id: number;
  kind: ConversationKind;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** Port: persistent conversations and their messages. */
export interface ConversationStore {
  createConversation(kind: ConversationKind, title: string, at: Date): number;
  appendMessage(conversationId: number, message: MessageRecord): number;
  /** The last `limit` messages of a conversation, oldest first. */
  recentMessages(conversationId: number, limit: number): StoredMessage[];
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
}

/** Port: where every tool call is recorded. */
export interface AuditSink {
  recordToolCall(entry: AuditEntry): void;
}
