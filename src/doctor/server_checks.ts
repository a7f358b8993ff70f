/**
 * `radar doctor`'s model server lines: reachable, the model pulled, tool calling, and the context
 * the server actually loaded (`/api/ps`) against the window Radar plans with.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ModelStatus } from "../core/chat_model.ts";
import { chooseContextWindow, promptRoom } from "../adapters/llm/context_window.ts";
import { toolCapableModels } from "../adapters/llm/http_errors.ts";
import {
  type LoadedContext,
  loadedContext,
  runningContext,
} from "../adapters/llm/loaded_context.ts";
import { openAiBase } from "../adapters/llm/openai_chat_model.ts";
import { type ChatModelOptions, transportOptions, trimBaseUrl } from "../adapters/llm/settings.ts";
import { tcpProbe } from "../adapters/llm/transport.ts";
import { blocking, type Verdict, verdict } from "./verdict.ts";

/** Reachable, pulled, tools: from the adapter's own status question. */
export function statusVerdicts(status: ModelStatus): Verdict[] {
  const where = `${status.provider} at ${status.baseUrl}`;
  if (!status.reachable) {
    return [
      blocking(
        "server",
        `no model server answers at ${status.baseUrl}${
          status.problem ? `: ${status.problem}` : ""
        }`,
        status.provider === "ollama"
          ? "start Ollama (`ollama serve`), or set llm.base_url to where it runs"
          : "start the server, or set llm.base_url to where it runs",
      ),
    ];
  }
  const verdicts = [verdict("server", "ok", `reachable: ${where}`)];
  if (status.modelPresent === false) {
    verdicts.push(blocking(
      "model",
      status.problem ?? `${status.model} is not on the server`,
      status.provider === "ollama"
        ? `\`ollama pull ${status.model}\`, or set llm.model to one \`ollama list\` shows`
        : `load ${status.model} on the server, or set llm.model to one it lists`,
    ));
    return verdicts;
  }
  if (status.modelPresent === undefined && status.problem) {
    verdicts.push(verdict("model", "warn", status.problem));
  } else {
    verdicts.push(verdict("model", "ok", `${status.model} is there`));
  }
  if (status.supportsTools === false) {
    verdicts.push(blocking(
      "tools",
      `${status.model} does not support tool calling`,
      `set llm.model to one that does, e.g. ${toolCapableModels}`,
    ));
  } else if (status.supportsTools === true) {
    verdicts.push(verdict("tools", "ok", "the model supports tool calling"));
  } else {
    verdicts.push(verdict("tools", "skip", "the server does not say; the probe below tells"));
  }
  return verdicts;
}

/** What the context check knows before it asks the server. */
export interface ContextFacts {
  config: RadarConfig;
  status: ModelStatus;
  /** Estimated tokens of a first request: system prompt, offered tools, a short message. */
  firstRequestTokens: number;
  /** Of which the offered tool schemas. */
  toolTokens: number;
  options: Pick<ChatModelOptions, "fetch" | "logger" | "sleep">;
}

/** The window Radar works with and the context the server loaded, for the suggestions too. */
export interface ContextFinding {
  verdicts: Verdict[];
  /** The window requests are fitted to (undefined: nobody says). */
  window?: number;
  loaded?: LoadedContext;
}

/** Asks the server what it loaded (after the probe, so the model is loaded) and compares. */
export async function contextVerdicts(facts: ContextFacts): Promise<ContextFinding> {
  const { config, status } = facts;
  const llm = config.llm;
  const transport = {
    ...transportOptions(llm, { ...facts.options }, tcpProbe),
    responseTimeoutMs: 10_000,
  };
  const cap = llm.max_context_tokens || undefined;
  if (status.provider === "ollama") {
    const origin = trimBaseUrl(llm.base_url);
    const asked =
      chooseContextWindow(facts.firstRequestTokens, status.contextLength, llm.max_context_tokens)
        .numCtx;
    const running = await runningContext(origin, llm.model, transport);
    if (running !== undefined && running < asked) {
      return {
        verdicts: [heldSmaller(running, asked, facts.firstRequestTokens)],
        window: running,
        loaded: { tokens: running, source: "/api/ps" },
      };
    }
    const verdicts = [nativeVerdict(running, asked)];
    // Radar grows num_ctx as a prompt needs, up to the cap or the model's length.
    const window = cap ?? status.contextLength ?? asked;
    verdicts.push(...roomVerdicts(facts, window));
    return {
      verdicts,
      window,
      loaded: running ? { tokens: running, source: "/api/ps" } : undefined,
    };
  }
  const origin = openAiBase(llm.base_url).replace(/\/v1$/, "");
  const loaded = await loadedContext(origin, llm.model, transport);
  const window = Math.min(loaded?.tokens ?? Infinity, cap ?? Infinity);
  const verdicts: Verdict[] = [];
  if (!loaded && !cap) {
    verdicts.push(verdict(
      "context",
      "warn",
      "the server does not say which context it loaded, so Radar cannot fit requests to it",
      { fix: "set llm.max_context_tokens to the context the server runs with" },
    ));
  } else if (loaded && cap && cap > loaded.tokens) {
    verdicts.push(verdict(
      "context",
      "warn",
      `llm.max_context_tokens is ${cap} but the server loaded ${loaded.tokens} (${loaded.source}); ` +
        `Radar fits requests to ${loaded.tokens}`,
      { fix: `set llm.max_context_tokens: ${loaded.tokens}, or load the model with more context` },
    ));
  } else {
    verdicts.push(verdict(
      "context",
      "ok",
      `${window} tokens (${
        loaded ? `the server loaded ${loaded.tokens}, ${loaded.source}` : "llm.max_context_tokens"
      }); ` +
        "Radar fits every request to it",
    ));
  }
  if (Number.isFinite(window)) verdicts.push(...roomVerdicts(facts, window));
  return { verdicts, window: Number.isFinite(window) ? window : undefined, loaded };
}

/** Ollama's native API: the loaded context against the num_ctx Radar sends. */
function nativeVerdict(running: number | undefined, asked: number): Verdict {
  if (running === undefined) {
    return verdict(
      "context",
      "warn",
      `/api/ps does not list the model, so the loaded context is unknown (Radar asks for num_ctx ${asked})`,
      { fix: "run `radar doctor` again while the model is loaded (`ollama ps` shows it)" },
    );
  }
  return verdict(
    "context",
    "ok",
    `the server loaded ${running} tokens (/api/ps) for num_ctx ${asked}`,
  );
}

/** The server held the window below the num_ctx Radar asks for: longer prompts get cut. */
function heldSmaller(running: number, asked: number, firstRequestTokens: number): Verdict {
  const more =
    `let Ollama load ${asked} (OLLAMA_CONTEXT_LENGTH=${asked}, or a model that takes num_ctx)`;
  return blocking(
    "context",
    `the server loaded ${running} tokens of context, less than the num_ctx ${asked} Radar ` +
      `asks for: longer prompts would be cut silently, system prompt and tools first`,
    firstRequestTokens <= promptRoom(running)
      ? `set llm.max_context_tokens: ${running} (Radar then fits every request to it), or ${more}`
      : `${more}: Radar's first request (~${firstRequestTokens} tokens) does not fit ${running}`,
  );
}

/** Whether a first request fits the window at all, with room for history and results. */
function roomVerdicts(facts: ContextFacts, window: number): Verdict[] {
  const room = promptRoom(window);
  const first = facts.firstRequestTokens;
  if (first > room) {
    const budget = Math.max(300, facts.toolTokens - (first - room) - 100);
    return [blocking(
      "context",
      `Radar's first request (~${first} tokens, ${facts.toolTokens} of them tool schemas) does not ` +
        `fit ${window} tokens with room for the answer (${room})`,
      `give the model more context, or set llm.tool_budget_tokens: ${
        Math.floor(budget / 100) * 100
      }`,
    )];
  }
  if (first > room * 0.7) {
    return [verdict(
      "context",
      "warn",
      `a first request takes ~${first} of the ${room} prompt tokens ${window} leaves: long chats, ` +
        "tool results and documents get little room (Radar cuts them, saying so)",
      { fix: "more context helps; see the suggested settings below" },
    )];
  }
  return [];
}
