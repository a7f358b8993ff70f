/**
 * Memory behind its two hook points: every store passes `pre_memory_store` and every search or
 * listing `post_memory_search` (a listing with an empty query). The remember and recall tools,
 * `radar memory add|list|search` and the dashboard's memory page (browse, search, one fact) all go
 * through here, so a `block_memory_pattern` or `filter_memory_pattern` rule (or a plugin hook)
 * holds whichever way a fact comes in or out.
 * With no hook at a point this is the plain store (one length check).
 */
import type { Hooks, HookVerdict, MemoryHit } from "./hooks.ts";
import type { Fact, FactCategory, FactStore } from "./ports.ts";
import type { MemorySearch } from "./recall.ts";

/** A store attempt: the new fact's id, or the hook's reason for refusing it. */
export type StoreOutcome = { ok: true; id: number } | { ok: false; message: string };

/** What hooked memory is built from. */
interface HookedMemoryOptions {
  facts: FactStore;
  hooks?: Hooks;
  /** Facts, summaries and digests for `recall` (absent: the facts' FTS5 search alone). */
  search?: MemorySearch;
}

/** The fact store with pre_memory_store and post_memory_search applied. */
export class HookedMemory {
  readonly #options: HookedMemoryOptions;

  constructor(options: HookedMemoryOptions) {
    this.#options = options;
  }

  /** pre_memory_store's verdict on content about to be stored (undefined: go on). */
  async storeVerdict(content: string, category: FactCategory): Promise<HookVerdict> {
    const hooks = this.#options.hooks;
    if (!hooks?.has("pre_memory_store")) return undefined;
    return await hooks.block("pre_memory_store", { content, category });
  }

  /**
   * Stores a fact unless a pre_memory_store hook blocks it or `confirm` (asked after the hooks)
   * answers a refusal.
   */
  async add(
    fact: { category: FactCategory; content: string; sourceConversationId?: number },
    at: Date,
    confirm?: () => Promise<string | undefined>,
  ): Promise<StoreOutcome> {
    const verdict = await this.storeVerdict(fact.content, fact.category);
    if (verdict) return { ok: false, message: verdict.message };
    const refusal = await confirm?.();
    if (refusal !== undefined) return { ok: false, message: refusal };
    return { ok: true, id: this.#options.facts.addFact(fact, at) };
  }

  /** Replaces a fact's text unless a pre_memory_store hook blocks the new text. */
  async update(fact: Fact, content: string, at: Date): Promise<StoreOutcome> {
    const verdict = await this.storeVerdict(content, fact.category);
    if (verdict) return { ok: false, message: verdict.message };
    this.#options.facts.updateFact(fact.id, content, at);
    return { ok: true, id: fact.id };
  }

  /** Full-text search (optionally in one category), then post_memory_search. */
  async searchFacts(query: string, limit: number, category?: FactCategory): Promise<Fact[]> {
    return await this.#filtered(query, this.#options.facts.searchFacts(query, limit, category));
  }

  /**
   * Facts newest first (optionally one category), then post_memory_search with an empty query:
   * browsing shows no fact a search would hide. A page may hold fewer than `limit` facts.
   */
  async listFacts(
    options: { limit: number; offset?: number; category?: FactCategory },
  ): Promise<Fact[]> {
    return await this.#filtered("", this.#options.facts.listFacts(options));
  }

  /** The fact itself, or undefined when post_memory_search would hide it (or it is absent). */
  async visible(fact: Fact | undefined): Promise<Fact | undefined> {
    if (!fact) return undefined;
    const [kept] = await this.#filtered("", [fact]);
    return kept;
  }

  /** The best memories for a query (by meaning too with an embedding model), filtered. */
  async recall(
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<readonly MemoryHit[]> {
    const search = this.#options.search;
    const found: readonly MemoryHit[] = search
      ? await search.search(query, limit, signal)
      : this.#options.facts.searchFacts(query, limit);
    return await this.#filtered(query, found);
  }

  async #filtered<T extends MemoryHit>(query: string, found: readonly T[]): Promise<T[]> {
    const hooks = this.#options.hooks;
    if (!hooks?.has("post_memory_search")) return [...found];
    return [...await hooks.filterMemories(query, found)];
  }
}
