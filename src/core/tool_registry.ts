/** The tool registry: offers tools under a token budget and runs calls safely. */
import { DatabaseDamagedError } from "./errors.ts";
import type { ToolCall, ToolSpec } from "./chat_model.ts";
import { estimateJsonTokens } from "./context_fit.ts";
import { failed, type Tool, type ToolContext, type ToolResult, toResult } from "./tool.ts";
import { expandStems, mentionsKeyword, rankHybrid, wordStems } from "./tool_relevance.ts";
import { Secrets } from "./secrets.ts";
import { textForModel } from "./untrusted_text.ts";

/** The name of the tool that lets the model ask for tools it was not offered. */
export const findToolsName = "find_tools";

/** What besides the message decides which tools are offered when not all fit. */
export interface OfferOptions {
  /** Offered first whatever the message (a heartbeat's `notify`, tools `find_tools` named). */
  pinned?: readonly string[];
  /** Tools used earlier in the conversation, newest first: likely needed again. */
  recentTools?: readonly string[];
  /** Embedding similarity of each tool (by name) to the message; absent: keywords only. */
  semanticScores?: ReadonlyMap<string, number>;
  /**
   * On-demand tools: offered when the message calls for them (chat, ask), or always (heartbeats
   * and tasks, which file what lands and keep one tool list from run to run).
   */
  onDemand?: "relevant" | "all";
}

/** Runs before a tool executes; returning a result blocks the call with it. */
export type ToolGate = (
  call: { tool: Tool; arguments: unknown },
  context: ToolContext,
) => Promise<ToolResult | undefined>;

/**
 * Runs after a tool executed (observe only): it sees the call and its result and may return a
 * short note, which is appended to the result the model sees. It must not throw; if it does, the
 * registry ignores it.
 */
export type ToolObserver = (
  call: { tool: Tool; arguments: unknown; result: ToolResult },
  context: ToolContext,
) => Promise<string | undefined>;

/** The record of one executed (or rejected) tool call. */
export interface ToolExecution {
  callId: string;
  name: string;
  /** The raw arguments text the model sent. */
  argumentsText: string;
  result: ToolResult;
  durationMs: number;
}

/** Options of `ToolRegistry.execute`. */
export interface ExecuteOptions {
  /** Names offered in this request; other names are rejected. */
  offered: ReadonlySet<string>;
  context: ToolContext;
  gates?: readonly ToolGate[];
  /** Post-call observers (plugin hooks); their notes follow the truncated result. */
  observers?: readonly ToolObserver[];
  maxResultChars: number;
  /** Milliseconds clock for durations (injected: the core does not read time itself). */
  elapsed: () => number;
}

const specs = new WeakMap<Tool, ToolSpec>();

/**
 * Converts a tool to the spec sent to the model (computed once per tool): every string in it, keys
 * of the schema included (property names, enums, defaults, descriptions a server or plugin
 * wrote), passes `textForModel`, so no tool of any source carries a chat-template token.
 */
export function toolSpec(tool: Tool): ToolSpec {
  let spec = specs.get(tool);
  if (!spec) {
    spec = {
      name: textForModel(tool.name),
      description: textForModel(tool.description),
      parameters: cleanForModel(tool.parameters) as Record<string, unknown>,
    };
    specs.set(tool, spec);
  }
  return spec;
}

function cleanForModel(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return textForModel(value);
  if (value === null || typeof value !== "object" || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => cleanForModel(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map((
      [key, inner],
    ) => [textForModel(key), cleanForModel(inner, depth + 1)]),
  );
}

/** Estimated prompt tokens one tool's spec costs on every request that offers it. */
export function toolTokenCost(tool: Tool): number {
  return estimateJsonTokens({ type: "function", function: toolSpec(tool) });
}

/** Cuts text to `max` characters with a note saying how much was cut. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated: ${text.length - max} more characters]`;
}

/** Where a registry keeps its tools (registration order is kept). */
interface ToolSet {
  register(tool: Tool): void;
  unregister(name: string): void;
  get(name: string): Tool | undefined;
  list(): Tool[];
}

function ownTools(): ToolSet {
  const tools = new Map<string, Tool>();
  return {
    register: (tool) => void tools.set(tool.name, tool),
    unregister: (name) => void tools.delete(name),
    get: (name) => tools.get(name),
    list: () => [...tools.values()],
  };
}

/**
 * Holds every available tool, built-in or from plugins, and runs their calls. The registry is
 * an exit: every result (and every observer's note) is masked with `secrets` before anything
 * sees it — the model, the conversation store, the audit trail, post_tool_call hooks — and
 * before the cut, so a secret straddling the cut is masked whole.
 */
export class ToolRegistry {
  readonly #tools: ToolSet;
  readonly #secrets: Secrets;

  /**
   * `secrets`: what results are masked with (default: none known, the generic rules only);
   * `tools`: where the tools are kept (default: a registry of its own; see `view`).
   */
  constructor(options: { secrets?: Secrets; tools?: ToolSet } = {}) {
    this.#secrets = options.secrets ?? new Secrets();
    this.#tools = options.tools ?? ownTools();
  }

  /** Adds or replaces a tool. */
  register(tool: Tool): void {
    this.#tools.register(tool);
  }

  /** Removes a tool by name. */
  unregister(name: string): void {
    this.#tools.unregister(name);
  }

  /** Looks up a tool by name. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Every tool, in registration order. */
  list(): Tool[] {
    return this.#tools.list();
  }

  /**
   * A registry showing only the tools `keep` accepts, plus `extra` (found first, listed last):
   * a view, not a copy (tools registered later show up), masking with the same secrets. A tool
   * it hides can be neither offered, nor joined by `find_tools`, nor called through it.
   */
  view(keep: (tool: Tool) => boolean, extra: readonly Tool[] = []): ToolRegistry {
    const extraNames = new Set(extra.map((tool) => tool.name));
    return new ToolRegistry({
      secrets: this.#secrets,
      tools: {
        register: (tool) => this.register(tool),
        unregister: (name) => this.unregister(name),
        get: (name) => {
          const own = extra.find((tool) => tool.name === name);
          if (own) return own;
          const tool = this.get(name);
          return tool && keep(tool) ? tool : undefined;
        },
        list: () => [
          ...this.list().filter((tool) => !extraNames.has(tool.name) && keep(tool)),
          ...extra,
        ],
      },
    });
  }

  /** True when every tool but the on-demand ones fits `budgetTokens`: `select` offers them all. */
  allFit(budgetTokens: number): boolean {
    return this.list().reduce(
      (sum, tool) => sum + (tool.onDemand || tool.name === findToolsName ? 0 : toolTokenCost(tool)),
      0,
    ) <= budgetTokens;
  }

  /**
   * Chooses the tools to offer for a message, always in registration order (a stable prompt
   * prefix), on-demand tools the request calls for last. When every tool fits `budgetTokens`, all are
   * offered (except `find_tools`: nothing is hidden). Otherwise: always-on tools, `find_tools`, pinned and recently used tools, then
   * the best by keyword (+ embedding) rank, then the rest in registration order, while they fit.
   */
  select(message: string, budgetTokens: number, options: OfferOptions = {}): Tool[] {
    const all = this.list().filter((tool) => !tool.onDemand);
    const onDemand = this.#wantedOnDemand(message, options);
    const tools = all.filter((tool) => tool.name !== findToolsName);
    if (this.allFit(budgetTokens)) return [...tools, ...onDemand];
    const first = [
      ...all.filter((tool) => tool.alwaysOn || tool.name === findToolsName),
      ...[...(options.pinned ?? []), ...(options.recentTools ?? [])].flatMap((name) =>
        this.get(name) ?? []
      ),
    ];
    const ranked = rankHybrid(message, tools, options.semanticScores);
    const chosen = new Set<Tool>();
    let spent = 0;
    for (const tool of [...first, ...ranked, ...tools]) {
      if (chosen.has(tool) || tool.onDemand) continue;
      const cost = toolTokenCost(tool);
      if (spent + cost > budgetTokens) continue;
      chosen.add(tool);
      spent += cost;
    }
    return [...all.filter((tool) => chosen.has(tool)), ...onDemand];
  }

  /**
   * The on-demand tools this request calls for (offered after the others, outside the budget, so a
   * request that brings one in repeats the previous prompt up to the end of the usual tools).
   */
  #wantedOnDemand(message: string, options: OfferOptions): Tool[] {
    const onDemand = this.list().filter((tool) => tool.onDemand);
    if (!onDemand.length || options.onDemand === "all") return onDemand;
    const wanted = new Set([...(options.pinned ?? []), ...(options.recentTools ?? [])]);
    const stems = expandStems(wordStems(message));
    return onDemand.filter((tool) => wanted.has(tool.name) || mentionsKeyword(stems, tool));
  }

  /**
   * Validates and runs one tool call; every failure becomes a result, never an exception, but
   * a damaged database (`DatabaseDamagedError`), which ends the run.
   */
  async execute(call: ToolCall, options: ExecuteOptions): Promise<ToolExecution> {
    const started = options.elapsed();
    const redact = (text: string) => this.#secrets.mask(text);
    const finish = (result: ToolResult): ToolExecution => ({
      callId: call.id,
      name: call.name,
      argumentsText: call.arguments,
      result: { ...result, text: truncateText(redact(result.text), options.maxResultChars) },
      durationMs: Math.max(0, options.elapsed() - started),
    });
    const tool = options.offered.has(call.name) ? this.get(call.name) : undefined;
    if (!tool) {
      const available = [...options.offered].join(", ") || "none";
      return finish(failed(`Unknown tool "${call.name}". Available tools: ${available}.`));
    }
    const parsedJson = parseArgumentsText(call.arguments);
    if (!parsedJson.ok) {
      return finish(failed(`Invalid arguments for ${tool.name}: ${parsedJson.error}`));
    }
    const parsed = tool.parse(parsedJson.value);
    if (!parsed.ok) {
      return finish(
        failed(`Invalid arguments for ${tool.name}: ${parsed.error}. Fix them and call again.`),
      );
    }
    let result: ToolResult;
    try {
      for (const gate of options.gates ?? []) {
        const blocked = await gate({ tool, arguments: parsed.value }, options.context);
        if (blocked) return finish(blocked);
      }
      result = toResult(await tool.run(parsed.value, options.context));
    } catch (error) {
      // A damaged database ends the run: going on around it would look like nothing happened.
      if (error instanceof DatabaseDamagedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      result = failed(`${tool.name} failed: ${message}`);
    }
    const execution = finish(result);
    const notes = await observe(options.observers ?? [], {
      tool,
      arguments: parsed.value,
      result: execution.result,
    }, options.context);
    if (notes.length) {
      execution.result = {
        ...execution.result,
        text: [execution.result.text, ...notes.map(redact)].join("\n"),
        // The hooks' notes are outside text (a plugin's output): the result is read as such.
        label: "private",
      };
    }
    return execution;
  }
}

/** Runs every observer (each isolated: a throwing observer is skipped); returns their notes. */
async function observe(
  observers: readonly ToolObserver[],
  call: Parameters<ToolObserver>[0],
  context: ToolContext,
): Promise<string[]> {
  if (!observers.length) return [];
  const notes = await Promise.all(
    observers.map((observer) =>
      Promise.resolve().then(() => observer(call, context)).catch(() => undefined)
    ),
  );
  return notes.filter((note): note is string => typeof note === "string" && note.length > 0);
}

/** Parses the model's arguments text: empty means `{}`; it must be a JSON object. */
export function parseArgumentsText(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `not valid JSON (${reason}). Send a JSON object.` };
  }
  if (typeof value === "string") return parseArgumentsText(value);
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "expected a JSON object of named arguments." };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
