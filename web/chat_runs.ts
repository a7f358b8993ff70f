/**
 * Chat runs started from the dashboard: each runs the same agent loop as `radar chat` in the
 * background and records its progress events, so the page can poll a fragment that shows the
 * model's work and tool calls as they happen, and cancel it through an AbortSignal. A tool that
 * needs the person's confirmation (exec's destructive commands) waits for an Allow/Deny answer
 * from the page; no answer within `confirmTimeoutMs`, or a cancel, counts as Deny.
 */
import { systemTimers, type Timers } from "../src/adapters/file_watcher.ts";
import { runAgent } from "../src/core/agent_loop.ts";
import type { Usage } from "../src/core/chat_model.ts";
import type { ToolExecution } from "../src/core/tool_registry.ts";
import type { WebDependencies } from "./ports.ts";
import { firstLine } from "../src/core/errors.ts";

/** A question a tool asked the person; the run waits until it is answered. */
export interface PendingConfirmation {
  id: string;
  question: string;
  answer(allowed: boolean, by: AnsweredConfirmation["by"]): void;
}

/** A question and its answer, kept for the finished run's view. */
export interface AnsweredConfirmation {
  question: string;
  allowed: boolean;
  /** Who decided: the person, the timeout or a cancel. */
  by: "person" | "timeout" | "cancel";
}

/** The state of one dashboard chat run. */
export interface ChatRun {
  id: string;
  conversationId: number;
  userMessage: string;
  /** Messages the conversation had before this run stored its own. */
  priorMessageCount: number;
  status: "running" | "done" | "failed" | "cancelled";
  startedAt: Date;
  finishedAt?: Date;
  /** Model calls started so far. */
  iterations: number;
  /** What the loop is doing now, in words. */
  activity: string;
  executions: ToolExecution[];
  /** A tool that started and has not finished. */
  runningTool?: { name: string; argumentsText: string };
  /** A tool's question waiting for Allow/Deny. */
  confirmation?: PendingConfirmation;
  confirmations: AnsweredConfirmation[];
  answer?: string;
  stopReason?: string;
  error?: string;
  usage?: Usage;
  controller: AbortController;
  /** Settles when the run has finished, whatever the outcome (for tests and shutdown). */
  done?: Promise<void>;
}

/** How many finished runs are kept for late polls. */
const keptFinishedRuns = 50;

/** How long a tool's question waits for an answer before it counts as Deny. */
const defaultConfirmTimeoutMs = 5 * 60_000;

/** Options of the run tracker (tests inject timers). */
interface ChatRunsOptions {
  timers?: Timers;
  confirmTimeoutMs?: number;
}

/** Starts, tracks and cancels chat runs (in memory; the conversation itself is in the store). */
export class ChatRuns {
  #runs = new Map<string, ChatRun>();

  constructor(
    private readonly deps: Pick<WebDependencies, "agent" | "clock" | "logger">,
    private readonly options: ChatRunsOptions = {},
  ) {}

  /** The run with this id, if still kept. */
  get(id: string): ChatRun | undefined {
    return this.#runs.get(id);
  }

  /** The running run of a conversation, if any. */
  activeFor(conversationId: number): ChatRun | undefined {
    for (const run of this.#runs.values()) {
      if (run.conversationId === conversationId && run.status === "running") return run;
    }
    return undefined;
  }

  /** Starts a run in the background and returns it at once. */
  start(conversationId: number, userMessage: string, priorMessageCount = 0): ChatRun {
    const run: ChatRun = {
      id: crypto.randomUUID(),
      conversationId,
      userMessage,
      priorMessageCount,
      status: "running",
      startedAt: this.deps.clock.now(),
      iterations: 0,
      activity: "Starting…",
      executions: [],
      confirmations: [],
      controller: new AbortController(),
    };
    this.#runs.set(run.id, run);
    this.#prune();
    run.done = this.#execute(run);
    return run;
  }

  /** Cancels a running run; returns false when it is unknown or already finished. */
  cancel(id: string): boolean {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") return false;
    run.activity = "Cancelling…";
    run.controller.abort();
    run.confirmation?.answer(false, "cancel");
    return true;
  }

  /**
   * Answers the run's pending question; false when `confirmationId` is not the one waiting
   * (already answered, timed out, or a stale page).
   */
  answer(id: string, confirmationId: string, allowed: boolean): boolean {
    const pending = this.#runs.get(id)?.confirmation;
    if (!pending || pending.id !== confirmationId) return false;
    pending.answer(allowed, "person");
    return true;
  }

  /** The agent loop's `confirm`: shows the question on the page and waits for the answer. */
  #confirm(run: ChatRun, question: string): Promise<boolean> {
    if (run.controller.signal.aborted) return Promise.resolve(false);
    const timers = this.options.timers ?? systemTimers;
    const previousActivity = run.activity;
    return new Promise<boolean>((resolve) => {
      const timer = timers.set(
        () => pending.answer(false, "timeout"),
        this.options.confirmTimeoutMs ?? defaultConfirmTimeoutMs,
      );
      const pending: PendingConfirmation = {
        id: crypto.randomUUID(),
        question,
        answer(allowed, by) {
          if (run.confirmation !== pending) return;
          timers.clear(timer);
          run.confirmation = undefined;
          run.confirmations.push({ question, allowed, by });
          run.activity = previousActivity;
          resolve(allowed);
        },
      };
      run.confirmation = pending;
      run.activity = "Waiting for your answer…";
    });
  }

  async #execute(run: ChatRun): Promise<void> {
    try {
      const result = await runAgent(this.deps.agent(), {
        conversationId: run.conversationId,
        kind: "chat",
        userMessage: run.userMessage,
        interactive: true,
        confirm: (question) => this.#confirm(run, question),
        signal: run.controller.signal,
        onEvent: (event) => {
          switch (event.type) {
            case "tools_offered":
              run.activity =
                `Offering ${event.tools.length} tools (~${event.estimatedPromptTokens} tokens)…`;
              break;
            case "model_started":
              run.iterations = event.iteration;
              run.activity = event.iteration === 1
                ? "The model is thinking…"
                : `The model is reading tool results (round ${event.iteration})…`;
              break;
            case "model_finished":
              run.activity = event.response.toolCalls.length
                ? `The model asked for ${event.response.toolCalls.length} tool call(s).`
                : "The model answered.";
              break;
            case "tool_started":
              run.runningTool = { name: event.name, argumentsText: event.argumentsText };
              run.activity = `Running ${event.name}…`;
              break;
            case "tool_finished":
              run.runningTool = undefined;
              run.executions.push(event.execution);
              break;
          }
        },
      });
      run.answer = result.answer;
      run.stopReason = result.stopReason;
      run.usage = result.usage;
      run.status = result.stopReason === "cancelled" ? "cancelled" : "done";
    } catch (error) {
      run.status = "failed";
      run.error = firstLine(error);
      this.deps.logger.warn("dashboard chat run failed", { error: run.error });
    } finally {
      run.confirmation?.answer(false, "cancel");
      run.runningTool = undefined;
      run.finishedAt = this.deps.clock.now();
    }
  }

  #prune(): void {
    const finished = [...this.#runs.values()].filter((run) => run.status !== "running");
    for (const run of finished.slice(0, Math.max(0, finished.length - keptFinishedRuns))) {
      this.#runs.delete(run.id);
    }
  }
}
