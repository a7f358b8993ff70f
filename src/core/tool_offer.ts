/**
 * Step "offer tools" of the agent loop: which tools one run offers the model. Chosen once (the
 * request's own list, or every tool when all fit `llm.tool_budget_tokens`, else the registry's
 * ranked selection, with embedding scores when a ranker is set), filtered by the filter_tools
 * hooks, then grown by the tools `find_tools` names, which pass the same filters. A tool that is
 * not offered cannot be called (the registry refuses it).
 */
import type { ChatMessage, ToolSpec } from "./chat_model.ts";
import type { Hooks } from "./hooks.ts";
import type { ConversationKind, Tool } from "./tool.ts";
import type { RequestRead } from "./agent_types.ts";
import { type ToolRegistry, toolSpec, toolTokenCost } from "./tool_registry.ts";
import type { ToolRanker } from "./tool_relevance.ts";

/** What choosing the tools reads. */
interface ToolOfferDependencies {
  registry: ToolRegistry;
  hooks?: Hooks;
  toolRanker?: ToolRanker;
  settings: { toolBudgetTokens: number };
}

/** The tools offered so far in one run, as names, specs and their token cost. */
export class ToolOffer {
  readonly names: Set<string>;
  readonly specs: ToolSpec[];
  #tokens: number;

  private constructor(
    private readonly deps: ToolOfferDependencies,
    private readonly kind: ConversationKind,
    tools: readonly Tool[],
  ) {
    this.names = new Set(tools.map((tool) => tool.name));
    this.specs = tools.map(toolSpec);
    this.#tokens = tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
  }

  /** Estimated prompt tokens the offered tools cost on each request. */
  get tokens(): number {
    return this.#tokens;
  }

  /** The run's first offer for `message` (`toolNames`: the request's own list). */
  static async choose(
    deps: ToolOfferDependencies,
    request: { userMessage: string; kind: ConversationKind; toolNames?: string[] },
    history: readonly ChatMessage[],
    signal: AbortSignal,
  ): Promise<ToolOffer> {
    const chosen = chooseTools(deps, request, recentToolNames(history), signal);
    // Awaited only when embeddings are asked: no extra turn of the event loop otherwise.
    let tools = chosen instanceof Promise ? await chosen : chosen;
    if (deps.hooks?.has("filter_tools")) {
      const kept = new Set(
        await deps.hooks.filterTools(tools.map((tool) => tool.name), request.kind),
      );
      tools = tools.filter((tool) => kept.has(tool.name));
    }
    return new ToolOffer(deps, request.kind, tools);
  }

  /**
   * Offers `names` from the next request on (tools `find_tools` named): through the same
   * filter_tools hooks, so a hidden tool stays hidden; unknown and offered names are skipped.
   */
  async join(names: readonly string[]): Promise<void> {
    if (!names.length) return;
    const { hooks, registry } = this.deps;
    const kept = hooks?.has("filter_tools") ? await hooks.filterTools(names, this.kind) : names;
    for (const name of kept) {
      const found = registry.get(name);
      if (!found || this.names.has(name)) continue;
      this.names.add(name);
      this.specs.push(toolSpec(found));
      this.#tokens += toolTokenCost(found);
    }
  }
}

function chooseTools(
  deps: ToolOfferDependencies,
  request: { userMessage: string; toolNames?: string[] },
  recentTools: string[],
  signal: AbortSignal,
): Tool[] | Promise<Tool[]> {
  if (request.toolNames) {
    return request.toolNames.map((name) => deps.registry.get(name)).filter((tool): tool is Tool =>
      tool !== undefined
    );
  }
  const budget = deps.settings.toolBudgetTokens;
  const all = deps.registry.list();
  const select = (semanticScores?: ReadonlyMap<string, number>) =>
    deps.registry.select(request.userMessage, budget, { recentTools, semanticScores });
  // Scores only matter when select has to choose (on-demand tools never count against the budget).
  if (!deps.toolRanker || deps.registry.allFit(budget)) return select();
  return deps.toolRanker.scores(request.userMessage, all, signal).then(select);
}

/** Names of the tools called in `history`, newest first. */
function recentToolNames(history: readonly ChatMessage[]): string[] {
  const names: string[] = [];
  for (const message of [...history].reverse()) {
    for (const call of message.toolCalls ?? []) {
      if (!names.includes(call.name)) names.push(call.name);
    }
  }
  return names;
}

/**
 * The tool texts of a request that come from outside, as reads: the descriptions and schemas of
 * offered MCP and plugin tools (public text, but not the user's), one per server or plugin.
 */
export function outsideToolTexts(
  registry: Pick<ToolRegistry, "get">,
  names: Iterable<string>,
): RequestRead[] {
  const sources = new Set<string>();
  for (const name of names) {
    const source = registry.get(name)?.source;
    if (source && source !== "builtin") sources.add(source);
  }
  return [...sources].map((source) => ({ source: `${source} tool descriptions`, label: "public" }));
}
