/**
 * The budget of unattended work (`budget:`): before a scheduled heartbeat or task run, a
 * conversation summary, a digest or money categorisation, whether today's tokens (from the run
 * log and the recorded background model calls) leave room for it; past a limit the run waits for
 * the next local day and ONE notification says so (per limit and day: kept in memory and, through
 * the notifier's outbox key, across restarts). Runs a person starts are never paused. Every model
 * call that is not a run's own turn counts: `counted` wraps the models of money categorisation
 * and vision (scanned pages, comic covers, the browser's look) so each call is recorded.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { RunLog } from "../core/work_ports.ts";
import type { ChatModel, ChatRequest, ChatResponse, Usage } from "../core/chat_model.ts";
import { estimateJsonTokens, estimateTokens } from "../core/context_fit.ts";
import {
  type BackgroundKind,
  type BudgetLimits,
  type BudgetPause,
  budgetPause,
  type BudgetReport,
  budgetReport,
  describePause,
  localDay,
  type UnattendedRun,
} from "../core/budget.ts";
import { formatLocalTime } from "../core/zoned_time.ts";

/** Sends one notification under an outbox scope (a second call with the same scope sends nothing). */
export type BudgetNotifier = (scope: string, title: string, message: string) => Promise<unknown>;

/** What the budget needs. */
export interface UnattendedBudgetDependencies {
  /** Read on every check, so a live config change applies at once. */
  config: RadarConfig;
  runs: Pick<RunLog, "spentSince" | "recordBackgroundCall">;
  clock: Clock;
  logger: Logger;
  notify?: BudgetNotifier;
}

const dayMs = 24 * 60 * 60_000;

/** Checks scheduled runs against `budget:` and reports today's spending. */
export class UnattendedBudget {
  #notified = new Set<string>();
  #sending: Promise<void> = Promise.resolve();
  constructor(private readonly deps: UnattendedBudgetDependencies) {}

  /** The limits as configured now. */
  limits(): BudgetLimits {
    const { daily_tokens: dailyTokens, task_daily_tokens: taskDailyTokens } =
      this.deps.config.budget;
    return { dailyTokens, taskDailyTokens };
  }

  /**
   * Undefined when `run` may start; else the one line saying why it waits. The first time for a
   * limit today the notification is sent meanwhile (`sent()` waits for it).
   */
  pausedFor(run: UnattendedRun): string | undefined {
    const limits = this.limits();
    if (!limits.dailyTokens && !limits.taskDailyTokens) return undefined;
    const timeZone = this.#timeZone();
    const day = localDay(this.deps.clock.now(), timeZone);
    const pause = budgetPause(limits, this.deps.runs.spentSince(day.start), day, run);
    if (!pause) return undefined;
    const reason = describePause(pause, `at ${formatLocalTime(pause.resumesAt, timeZone)}`);
    this.#notifyOnce(pause, reason);
    return `paused by the budget: ${reason}`;
  }

  /**
   * Records what one background model call (a summary, a digest) spent, from the server's usage,
   * so the budget counts it; a failed write is logged, never thrown (the work itself is done).
   */
  spent(kind: BackgroundKind, usage: Usage | undefined, startedAt: Date, detail: string): void {
    const promptTokens = usage?.promptTokens ?? 0;
    const completionTokens = usage?.completionTokens ?? 0;
    if (promptTokens + completionTokens <= 0) return;
    try {
      this.deps.runs.recordBackgroundCall({
        kind,
        startedAt,
        promptTokens,
        completionTokens,
        detail,
      });
    } catch (error) {
      this.deps.logger.warn("the tokens of a background model call were not recorded", {
        kind,
        error: (error as Error).message,
      });
    }
  }

  /**
   * `model` with what each call spent recorded as `kind` (the server's usage, or Radar's own
   * estimate when it reports none), so no model call escapes the budget.
   */
  counted(kind: BackgroundKind, model: ChatModel): ChatModel {
    return {
      provider: model.provider,
      model: model.model,
      status: (signal) => model.status(signal),
      chat: async (request, signal) => {
        const startedAt = this.deps.clock.now();
        const response = await model.chat(request, signal);
        this.spent(
          kind,
          response.usage ?? estimatedUsage(request, response),
          startedAt,
          model.model,
        );
        return response;
      },
    };
  }

  /** Resolves when the pause notifications started so far were sent (or failed). */
  sent(): Promise<void> {
    return this.#sending;
  }

  /** Today's spending against the limits and the last `days` days. */
  report(days = 7): BudgetReport {
    const now = this.deps.clock.now();
    const timeZone = this.#timeZone();
    const since = new Date(localDay(now, timeZone).start.getTime() - (days - 1) * dayMs - dayMs);
    return budgetReport(this.limits(), this.deps.runs.spentSince(since), now, timeZone, days);
  }

  #notifyOnce(pause: BudgetPause, reason: string): void {
    const scope = pause.scope === "daily"
      ? `budget:daily:${pause.day}`
      : `budget:task-${pause.taskId}:${pause.day}`;
    if (this.#notified.has(scope)) return;
    this.#notified.add(scope);
    this.deps.logger.warn("unattended runs paused by the budget", { scope, reason });
    const notify = this.deps.notify;
    if (!notify) return;
    const text = `${reason[0].toUpperCase()}${reason.slice(1)}.`;
    this.#sending = this.#sending
      .then(() => notify(scope, "Radar paused unattended work", text))
      .then(() => {}, (error) => {
        this.deps.logger.warn("budget notification failed", { error: (error as Error).message });
      });
  }

  #timeZone(): string | undefined {
    return this.deps.config.radar.timezone || undefined;
  }
}

/** What an image costs a vision model, at most about (LLaVA 576, Qwen-VL up to ~1,300 a page). */
const imageTokens = 1_500;

/** Radar's estimate of a call's usage when the server reports none (it over-counts on purpose). */
function estimatedUsage(request: ChatRequest, response: ChatResponse): Usage {
  const images = request.messages.reduce((sum, message) => sum + (message.images?.length ?? 0), 0);
  const text = request.messages.map((message) => message.content).join("\n");
  return {
    promptTokens: estimateTokens(text) + estimateJsonTokens(request.tools) + images * imageTokens,
    completionTokens: estimateTokens(response.content) + estimateJsonTokens(response.toolCalls),
  };
}
