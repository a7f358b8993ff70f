/**
 * Heartbeat triage (pure): before a heartbeat calls the main model with tools, a small `fast`
 * model answers one tool-less question over the events, shown as data — does anything here need
 * action or the user's attention? Only a clear "no" skips the main model; anything else (an
 * unclear answer, an urgent event, a failed triage) lets the main model look. The rules are pure;
 * `TriageRunner` asks the fast model and reports what it decided and cost.
 */
import type { ChatMessage, ChatModel, Usage } from "../core/chat_model.ts";
import type { Logger } from "../core/ports.ts";
import { formatEvents, type PendingEvent } from "../core/heartbeat.ts";
import { untrustedNotice, wrapUntrusted } from "../core/untrusted_text.ts";

/** The triage system prompt: fixed, so the fast model's prompt cache holds across ticks. */
const triageSystemPrompt =
  "You sort events for a personal assistant. Reply with one word: YES if any event needs an " +
  "action or the user's attention (something to do, answer, file, fix or be told about), NO if " +
  "none does (routine noise, nothing changed that matters).";

/** Bounds of the triage message: smaller than the main heartbeat message. */
const triageBounds = { perSource: 10, detailChars: 400, totalChars: 3000 };

/** True when the events should go through triage (urgent events always reach the main model). */
export function shouldTriage(events: readonly PendingEvent[]): boolean {
  return events.length > 0 && !events.some((event) => event.urgent);
}

/** The two messages of the triage request; the events are wrapped as untrusted data. */
export function triageMessages(events: readonly PendingEvent[], markerId?: string): ChatMessage[] {
  const data = wrapUntrusted(formatEvents(events, triageBounds), {
    source: "events",
    id: markerId,
  });
  return [
    { role: "system", content: triageSystemPrompt },
    {
      role: "user",
      content: `Events since the last check:\n${data}\n${untrustedNotice}\n` +
        "Does anything here need action or the user's attention? Answer YES or NO.",
    },
  ];
}

/** How a triage answer was read. */
export interface TriageVerdict {
  /** False only for a clear "no". */
  needsMainModel: boolean;
  /** The answer's first line, bounded (for the run log). */
  answer: string;
}

/** Reads the fast model's answer: only a leading "no" (without a "yes" anywhere) skips. */
export function readTriageAnswer(text: string): TriageVerdict {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const answer = (cleaned.split("\n").find((line) => line.trim()) ?? "").trim().slice(0, 120);
  const firstWord = cleaned.match(/[\p{L}]+/u)?.[0]?.toLowerCase();
  const saysNo = firstWord === "no" && !/\byes\b/i.test(cleaned);
  return { needsMainModel: !saysNo, answer };
}

/** What one triage did. */
export interface TriageOutcome {
  /** "nothing": the fast model said no; "attention": yes or unclear; "failed": it could not answer. */
  verdict: "nothing" | "attention" | "failed";
  /** One line for the run log, e.g. `triage (fast model): NO — 41+1 tokens`. */
  note: string;
  usage?: Usage;
  modelMs?: number;
  answer?: string;
}

/** Warns on the first failure of a streak only (a fast server that stays down warns once). */
export class TriageRunner {
  #failing = false;
  constructor(
    private readonly model: ChatModel,
    private readonly logger: Logger,
    private readonly elapsed: () => number,
  ) {}

  /** Asks the fast model; never throws (a failure returns verdict "failed"). */
  async triage(events: readonly PendingEvent[], signal?: AbortSignal): Promise<TriageOutcome> {
    const started = this.elapsed();
    try {
      const response = await this.model.chat(
        { messages: triageMessages(events), tools: [], temperature: 0 },
        signal,
      );
      this.#failing = false;
      const verdict = readTriageAnswer(response.content);
      const usage = response.usage;
      const tokens = usage ? ` (${usage.promptTokens}+${usage.completionTokens} tokens)` : "";
      return {
        verdict: verdict.needsMainModel ? "attention" : "nothing",
        note: `triage by ${this.model.model}: ${verdict.answer || "(empty answer)"}${tokens}`,
        usage,
        modelMs: response.durationMs ?? this.elapsed() - started,
        answer: verdict.answer,
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!this.#failing) {
        this.logger.warn("heartbeat triage failed; the main model looks instead", {
          model: this.model.model,
          reason,
        });
      }
      this.#failing = true;
      return { verdict: "failed", note: `triage failed: ${reason}`.slice(0, 200) };
    }
  }
}
