/** Runs the heartbeat triage request on the `fast` model and reports what it decided and cost. */
import type { ChatModel } from "../core/chat_model.ts";
import type { PendingEvent } from "../core/heartbeat.ts";
import { readTriageAnswer, triageMessages } from "../core/heartbeat_triage.ts";
import type { Usage } from "../core/messages.ts";
import type { Logger } from "../core/ports.ts";

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
