/**
 * The judgment probe: each case of probe_cases.ts sent once through the configured chat model
 * (the real adapter: retries, leaked-call recovery, error classification) with Radar's own system
 * prompt and tools, judged, timed, and counted: latency, answering and reading speed.
 */
import type { ChatMessage, ChatModel, ChatResponse, ToolSpec } from "../core/chat_model.ts";
import { firstLine, LlmError } from "../core/errors.ts";
import type { Tool } from "../core/tool.ts";
import { estimateJsonTokens } from "../core/context_fit.ts";
import { type ProbeCase, probeCases, type ProbeContext, type ProbeSkill } from "./probe_cases.ts";

/** How one case went. */
export interface ProbeOutcome {
  id: string;
  skill: ProbeSkill;
  pass: boolean;
  /** Why it failed, or why it did not run. */
  reason?: string;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  /** The answer's tool calls were recovered from text (the server did not parse them). */
  leaked: boolean;
  /** False when the case did not run (time budget, or the server failed before it). */
  ran: boolean;
}

/** The whole probe. */
export interface ProbeReport {
  outcomes: ProbeOutcome[];
  passed: number;
  ran: number;
  /** Tool-call answers whose calls came back as text. */
  leaked: number;
  toolAnswers: number;
  medianLatencyMs: number;
  /** Answer tokens per second (server timing when it gives one, else over the whole request). */
  answerTokensPerSecond?: number;
  /** Prompt tokens read per second (server timing only). */
  readTokensPerSecond?: number;
  /** The first request's model load time, when the server says. */
  loadMs?: number;
  /** Estimated prompt tokens of the largest probe request. */
  largestPromptTokens: number;
  /** A failure that stopped the probe: the server refused tools, went away, lost the model. */
  stoppedBy?: LlmError;
}

/** What the probe runs with. */
export interface ProbeOptions {
  model: ChatModel;
  systemPrompt: string;
  /** Radar's registered tools (the cases' needs are offered from these). */
  tools: ReadonlyMap<string, Tool>;
  toolSpec: (tool: Tool) => ToolSpec;
  context: ProbeContext;
  temperature: number;
  /** Milliseconds for the whole probe; cases past it are reported as not run. */
  budgetMs: number;
  /** Milliseconds for one case (the first also pays the model's load). */
  caseTimeoutMs: number;
  now?: () => number;
  cases?: ProbeCase[];
}

/** Failures after which no further case is worth sending. */
const stopping = new Set(["unreachable", "model_not_found", "tools_unsupported"]);

/** Runs every case in order within the budget. */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const outcomes: ProbeOutcome[] = [];
  const offered = [...new Set((options.cases ?? probeCases).flatMap((item) => item.needs))]
    .map((name) => options.tools.get(name))
    .filter((tool): tool is Tool => tool !== undefined);
  const specs = offered.map(options.toolSpec);
  let stoppedBy: LlmError | undefined;
  const timings: ChatResponse[] = [];
  let largest = 0;
  for (const item of options.cases ?? probeCases) {
    const outcome = blank(item);
    outcomes.push(outcome);
    if (stoppedBy) {
      outcome.reason = "not run: the server failed before it";
      continue;
    }
    if (now() - started > options.budgetMs) {
      outcome.reason = "not run: the probe's time ran out";
      continue;
    }
    const messages: ChatMessage[] = [
      { role: "system", content: options.systemPrompt },
      ...item.messages(options.context),
    ];
    const estimated = estimateJsonTokens(messages) + estimateJsonTokens(specs);
    largest = Math.max(largest, estimated);
    const begun = now();
    try {
      const response = await options.model.chat({
        messages,
        tools: specs,
        temperature: options.temperature,
        estimatedPromptTokens: estimated,
      }, AbortSignal.timeout(options.caseTimeoutMs));
      outcome.ran = true;
      // The server's own time when it says more (a stand-in answers at once, timing an 8B model).
      outcome.latencyMs = Math.round(Math.max(now() - begun, response.durationMs ?? 0));
      outcome.promptTokens = response.usage?.promptTokens ?? 0;
      outcome.completionTokens = response.usage?.completionTokens ?? 0;
      outcome.leaked = (response.warnings ?? []).some((line) => /wrote as text/.test(line));
      outcome.reason = item.judge(response, options.tools);
      outcome.pass = outcome.reason === undefined;
      timings.push(response);
    } catch (error) {
      outcome.ran = true;
      outcome.latencyMs = Math.round(now() - begun);
      outcome.reason = firstLine(error, 300);
      if (error instanceof LlmError && stopping.has(error.kind)) stoppedBy = error;
    }
  }
  return summarize(outcomes, timings, largest, stoppedBy);
}

function blank(item: ProbeCase): ProbeOutcome {
  return {
    id: item.id,
    skill: item.skill,
    pass: false,
    latencyMs: 0,
    promptTokens: 0,
    completionTokens: 0,
    leaked: false,
    ran: false,
  };
}

function summarize(
  outcomes: ProbeOutcome[],
  responses: ChatResponse[],
  largestPromptTokens: number,
  stoppedBy: LlmError | undefined,
): ProbeReport {
  const ran = outcomes.filter((outcome) => outcome.ran);
  const latencies = ran.map((outcome) => outcome.latencyMs).sort((a, b) => a - b);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const timed = responses.filter((response) => response.timing?.generationMs);
  const answered = timed.length
    ? rate(
      sum(timed.map((response) => response.usage?.completionTokens ?? 0)),
      sum(timed.map((response) => response.timing!.generationMs!)),
    )
    : rate(
      sum(responses.map((response) => response.usage?.completionTokens ?? 0)),
      sum(responses.map((response) => response.durationMs ?? 0)),
    );
  const read = responses.filter((response) => response.timing?.promptMs);
  return {
    outcomes,
    passed: outcomes.filter((outcome) => outcome.pass).length,
    ran: ran.length,
    leaked: outcomes.filter((outcome) => outcome.leaked).length,
    toolAnswers: responses.filter((response) => response.toolCalls.length).length,
    medianLatencyMs: latencies.length ? latencies[Math.floor(latencies.length / 2)] : 0,
    answerTokensPerSecond: answered,
    readTokensPerSecond: read.length
      ? rate(
        sum(read.map((response) => response.usage?.promptTokens ?? 0)),
        sum(read.map((response) => response.timing!.promptMs!)),
      )
      : undefined,
    loadMs: responses[0]?.timing?.loadMs,
    largestPromptTokens,
    stoppedBy,
  };
}

function rate(tokens: number, milliseconds: number): number | undefined {
  return tokens > 0 && milliseconds > 0 ? Math.round(tokens / (milliseconds / 1000)) : undefined;
}
