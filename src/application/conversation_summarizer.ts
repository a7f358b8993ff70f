/**
 * The conversation-summary tick job: when the queue is idle, quiet chat conversations that changed
 * since their last summary are summarized by one tool-less model call each (the transcript as
 * bounded untrusted data) and stored for `recall`. A tick with nothing new makes no model call.
 * Each call's tokens count against `budget.daily_tokens`; past it the summaries wait for the next
 * local day (the budget's one notification says so).
 */
import type { ChatModel } from "../core/chat_model.ts";
import type { BackgroundBudget } from "../core/budget.ts";
import {
  cleanSummary,
  summaryRequest,
  type SummaryStore,
  summaryTranscript,
} from "../core/conversation_summary.ts";
import type { ConversationArchive, Logger, StoredMessage } from "../core/ports.ts";
import type { TickJob } from "../core/work_ports.ts";
import { Secrets } from "../core/secrets.ts";

/** What the summarizer needs. */
export interface ConversationSummarizerDependencies {
  store: SummaryStore;
  conversations: Pick<ConversationArchive, "eachMessage">;
  model: ChatModel;
  /** Events waiting for the heartbeat: the model is left to it while any are. */
  pendingEvents: () => number;
  logger: Logger;
  settings: { quiet_minutes: number; min_messages: number };
  /** Conversations summarized per tick at most (default 2). */
  perTick?: number;
  /**
   * The known secrets (the config's and those read since start): the title and each message are
   * masked before the transcript is cut and sent, and the summary is stored masked (a
   * conversation stored before a password was known is summarized later).
   */
  secrets?: Secrets;
  /** `budget:`: checked before each model call, told what each call spent. */
  budget?: BackgroundBudget;
}

/** A failed conversation waits this long before it is tried again. */
const retryAfterMs = 30 * 60_000;

/** Summarizes quiet conversations on idle ticks. */
export class ConversationSummarizer implements TickJob {
  readonly name = "conversation summaries";
  #retryAt = new Map<number, number>();
  #failing = false;

  constructor(private readonly deps: ConversationSummarizerDependencies) {}

  /** One tick: at most `perTick` model calls, none when nothing changed. */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    if (deps.pendingEvents() > 0) return;
    const quietBefore = new Date(now.getTime() - deps.settings.quiet_minutes * 60_000);
    const perTick = deps.perTick ?? 2;
    const candidates = deps.store.candidates(quietBefore, deps.settings.min_messages, perTick + 8)
      .filter((candidate) => (this.#retryAt.get(candidate.conversationId) ?? 0) <= now.getTime())
      .slice(0, perTick);
    for (const candidate of candidates) {
      if (signal.aborted) return;
      const paused = deps.budget?.pausedFor({ kind: "summary" });
      if (paused) {
        deps.logger.debug("conversation summaries wait", { reason: paused });
        return;
      }
      await this.#summarize(candidate.conversationId, candidate.title, now, signal);
    }
  }

  async #summarize(id: number, title: string, now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    // Every message, read a page at a time and never held all at once: the transcript keeps
    // what it needs, and the summary records the true last message and count.
    let last: StoredMessage | undefined;
    let count = 0;
    const secrets = deps.secrets ?? new Secrets();
    const mask = (text: string) => secrets.mask(text);
    const transcript = summaryTranscript(
      (function* (messages: Iterable<StoredMessage>) {
        for (const message of messages) {
          last = message;
          count++;
          // Only user and assistant turns reach the transcript: tool results are not masked here.
          yield message.role === "user" || message.role === "assistant"
            ? { ...message, content: mask(message.content) }
            : message;
        }
      })(deps.conversations.eachMessage(id)),
    );
    if (!last) return;
    try {
      const response = await deps.model.chat({
        messages: summaryRequest(mask(title), transcript),
        tools: [],
        temperature: 0.2,
      }, signal);
      deps.budget?.spent("summary", response.usage, now, `conversation ${id}`);
      const cleaned = cleanSummary(response.content);
      const content = cleaned && mask(cleaned);
      if (!content) throw new Error("the model answered with an empty summary");
      deps.store.put({
        conversationId: id,
        title: mask(title),
        content,
        lastMessageId: last.id,
        messageCount: count,
        conversationAt: last.createdAt,
        summarizedAt: now.toISOString(),
      });
      this.#retryAt.delete(id);
      this.#failing = false;
      deps.logger.debug("conversation summarized", {
        conversation: id,
        tokens: (response.usage?.promptTokens ?? 0) + (response.usage?.completionTokens ?? 0),
      });
    } catch (error) {
      if (signal.aborted) return;
      this.#retryAt.set(id, now.getTime() + retryAfterMs);
      if (!this.#failing) {
        const reason = error instanceof Error ? error.message : String(error);
        deps.logger.warn("conversation summary failed; retried later", {
          conversation: id,
          reason,
        });
      }
      this.#failing = true;
    }
  }
}
