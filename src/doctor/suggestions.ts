/**
 * Settings `radar doctor` suggests from what it measured: the model (tool calling, probe score),
 * the context window (how fast the model reads a prompt, what the server holds) and the tool
 * budget (what the window leaves, whether the model picks well among many tools).
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ModelStatus } from "../core/chat_model.ts";
import { toolCapableModels } from "../adapters/llm/http_errors.ts";
import type { ProbeReport } from "./model_probe.ts";

/** One suggested setting and why. */
export interface Suggestion {
  key: string;
  value: string;
  why: string;
}

/** What the suggestions are drawn from. */
export interface Measured {
  config: RadarConfig;
  status?: ModelStatus;
  probe?: ProbeReport;
  /** The window requests are fitted to now. */
  window?: number;
  /** Estimated tokens of a first request. */
  firstRequestTokens?: number;
}

/** Seconds a full window may take to read: beyond it every long chat turn feels stuck. */
const readingSeconds = 30;

/** The suggestions; each says why. */
export function suggestSettings(measured: Measured): Suggestion[] {
  const { config, status, probe } = measured;
  const suggestions: Suggestion[] = [];
  const model = modelSuggestion(config, status, probe);
  if (model) suggestions.push(model);
  // The window and the tool budget only for a model that can work at all.
  const window = probe?.ran && !probe.stoppedBy ? windowSuggestion(measured) : undefined;
  if (window) suggestions.push(window);
  const budget = probe?.ran && !probe.stoppedBy
    ? budgetSuggestion(measured, Number(window?.value ?? measured.window ?? 0))
    : undefined;
  if (budget) suggestions.push(budget);
  return suggestions;
}

function modelSuggestion(
  config: RadarConfig,
  status: ModelStatus | undefined,
  probe: ProbeReport | undefined,
): Suggestion | undefined {
  const current = config.llm.model;
  const other = `a model with native tool calling that fits this machine (${toolCapableModels})`;
  if (status?.supportsTools === false || probe?.stoppedBy?.kind === "tools_unsupported") {
    return {
      key: "llm.model",
      value: "(another)",
      why: `${current} cannot call tools; use ${other}`,
    };
  }
  if (!probe || !probe.ran) return undefined;
  if (probe.passed < Math.ceil(probe.ran * 0.6)) {
    return {
      key: "llm.model",
      value: "(another)",
      why: `${current} got ${probe.passed}/${probe.ran} probes right; try ${other}`,
    };
  }
  if (probe.leaked >= 2) {
    return {
      key: "llm.model",
      value: "(another, or another server)",
      why: `${probe.leaked} of ${probe.toolAnswers} tool calls came back as text: Radar ` +
        "recovers them, but the server's template does not parse them; a model or server " +
        "with native tool calling is steadier",
    };
  }
  return {
    key: "llm.model",
    value: current,
    why: `keep it: ${probe.passed}/${probe.ran} probes right`,
  };
}

/** Powers of two from 4096 up to `most`. */
function windows(most: number): number[] {
  const found: number[] = [];
  for (let size = 4096; size <= most; size *= 2) found.push(size);
  return found;
}

function windowSuggestion(measured: Measured): Suggestion | undefined {
  const { config, status, probe } = measured;
  const modelMost = status?.contextLength ?? 32_768;
  const speed = probe?.readTokensPerSecond;
  const first = measured.firstRequestTokens ?? 2000;
  // Room for the first request, a few turns of history and a tool result.
  const wanted = Math.max(8192, first * 3);
  const candidates = windows(Math.max(4096, modelMost));
  const affordable = speed
    ? candidates.filter((size) => size <= speed * readingSeconds)
    : candidates.filter((size) => size <= wanted * 2);
  const pick = affordable.find((size) => size >= wanted) ?? affordable.at(-1) ?? 4096;
  const current = config.llm.max_context_tokens;
  if (pick === current) return undefined;
  const how = speed
    ? `the model reads ~${speed} tokens/s, so a full ${pick}-token window takes ~${
      Math.round(pick / speed)
    } s`
    : `room for a first request (~${first} tokens) plus history and tool results`;
  const server = status?.provider === "openai"
    ? ` (the server must load as much: OLLAMA_CONTEXT_LENGTH=${pick} or its own setting)`
    : "";
  return { key: "llm.max_context_tokens", value: String(pick), why: `${how}${server}` };
}

function budgetSuggestion(measured: Measured, window: number): Suggestion | undefined {
  const { config, probe } = measured;
  const current = config.llm.tool_budget_tokens;
  const pickedWrong = probe?.outcomes.some((outcome) =>
    outcome.ran && !outcome.pass && (outcome.skill === "pick" || outcome.skill === "none")
  );
  let value = current;
  let why = "";
  if (window && window <= 4096 && current > 800) {
    value = 800;
    why = `a ${window}-token window leaves little room beside ${current} tokens of tool schemas`;
  } else if (pickedWrong && current > 900) {
    value = 900;
    why = "the model picked the wrong tool (or one it did not need): fewer tools help";
  }
  return value === current ? undefined : {
    key: "llm.tool_budget_tokens",
    value: String(value),
    why,
  };
}
