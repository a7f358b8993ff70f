/**
 * Keyword relevance of tools to a message: cheap, deterministic, no model call.
 *
 * Ranks tools by embedding similarity to a message. Tool vectors are cached (by embedding model
 * and a hash of the embedded text, so a changed description is embedded again); only the message
 * is embedded per request. A failing embedding server means keyword ranking: one warning, and a
 * retry after `retryAfterMs`.
 */
import type { Tool } from "./tool.ts";
import { cosineSimilarity, type EmbeddingWithBackoff } from "./embedding_model.ts";
import { sha256Hex } from "./bytes.ts";

/** Port: similarity of each tool (by name) to a message, from embeddings; undefined if unknown. */
export interface ToolRanker {
  scores(
    message: string,
    tools: readonly Tool[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, number> | undefined>;
}

/** Words too common to tell tools apart. */
const stopWords = new Set([
  "the",
  "a",
  "an",
  "and",
  "or",
  "to",
  "of",
  "in",
  "on",
  "for",
  "with",
  "me",
  "my",
  "is",
  "it",
  "this",
  "that",
  "what",
  "please",
  "can",
  "you",
  "i",
  "do",
  "be",
  "at",
  "from",
  "by",
  "as",
]);

/** Splits text into lowercase word stems (plural "s" dropped). */
export function wordStems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !stopWords.has(word))
    .map((word) => (word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word));
}

/**
 * Verbs many tool names share ("list_tasks", "remove_monitor"): a match on one alone does not
 * make a tool relevant, unless the tool lists the verb among its keywords.
 */
const genericStems = new Set(["list", "remove", "cancel", "delete", "add", "stop"]);

/** Scores a tool against message stems: name words count triple, keywords double. */
export function relevanceScore(messageStems: ReadonlySet<string>, tool: Tool): number {
  const keywordStems = new Set(wordStems((tool.keywords ?? []).join(" ")));
  let score = 0;
  let specific = false;
  const count = (stems: Iterable<string>, points: number) => {
    for (const stem of new Set(stems)) {
      if (!messageStems.has(stem)) continue;
      score += points;
      if (!genericStems.has(stem) || keywordStems.has(stem)) specific = true;
    }
  };
  count(wordStems(tool.name.replaceAll("_", " ")), 3);
  count(keywordStems, 2);
  count(wordStems(tool.description), 1);
  return specific ? score : 0;
}

/** True when the message names one of the tool's keywords (how an on-demand tool is called in). */
export function mentionsKeyword(messageStems: ReadonlySet<string>, tool: Tool): boolean {
  return wordStems((tool.keywords ?? []).join(" ")).some((stem) => messageStems.has(stem));
}

/** Tools with any relevance to the message, most relevant first (ties keep order). */
export function rankByRelevance(message: string, tools: readonly Tool[]): Tool[] {
  const stems = expandStems([...wordStems(message), ...shapeStems(message)]);
  return tools
    .map((tool, index) => ({ tool, index, score: relevanceScore(stems, tool) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.tool);
}

/**
 * Words people use for what tools do, mapped to the words tools are described with: a message
 * "jot down…" or "how much free space" shares no word with `write_file` or `exec` otherwise.
 * Each row: everyday words → the tool-side words they imply.
 */
const synonymRows: ReadonlyArray<readonly [string, string]> = [
  ["jot add append put", "write file save"],
  ["summarize summarise summary skim content say inside", "read file"],
  [
    "disk space free memory cpu uptime machine computer process running installed version port ram usage git",
    "run command",
  ],
  [
    "reminder reminders alarm later tomorrow hour minute weekday weekend daily nightly",
    "schedule task",
  ],
  ["stop pause unschedule anymore", "cancel task remove monitor"],
  ["set up which scheduled upcoming", "list task"],
  ["folder dir what's inside", "list directory"],
  ["look up latest who when news weather price online", "web search"],
  ["article link site", "fetch url page"],
  ["ping alert phone buzz", "notify"],
  ["forget recall said told", "recall memory"],
  ["keep eye notice changes", "monitor watch"],
  [
    "renew buy purchase booking reserve register signup checkout cart login",
    "browser form",
  ],
];

const synonyms: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [words, implied] of synonymRows) {
    for (const stem of wordStems(words)) {
      map.set(stem, [...(map.get(stem) ?? []), ...wordStems(implied)]);
    }
  }
  return map;
})();

/** Words implied by what a message contains: a link means a page, a path a file or folder. */
function shapeStems(message: string): string[] {
  const stems: string[] = [];
  if (/https?:\/\/\S/i.test(message)) stems.push("url", "page");
  if (/(^|\s)~?\.{0,2}\/\S/.test(message)) stems.push("file", "folder");
  return stems;
}

/** Message stems plus the tool-side words they imply (see `synonymRows`). */
export function expandStems(stems: readonly string[]): Set<string> {
  const expanded = new Set(stems);
  for (const stem of stems) for (const implied of synonyms.get(stem) ?? []) expanded.add(implied);
  return expanded;
}

/** Reciprocal-rank-fusion constant: ranks below ~60 add little, ties between lists even out. */
export const fusionK = 60;

/**
 * Keyword rank fused with embedding rank (reciprocal-rank fusion): a tool near the top of either
 * list ranks high. Without `semanticScores` this is the keyword ranking. Tools matching neither
 * are left out.
 */
export function rankHybrid(
  message: string,
  tools: readonly Tool[],
  semanticScores?: ReadonlyMap<string, number>,
): Tool[] {
  const keywordRanking = rankByRelevance(message, tools);
  if (!semanticScores?.size) return keywordRanking;
  const semanticRanking = tools.filter((tool) => semanticScores.has(tool.name))
    .sort((a, b) => semanticScores.get(b.name)! - semanticScores.get(a.name)!);
  const fused = new Map<Tool, number>();
  for (const ranking of [keywordRanking, semanticRanking]) {
    ranking.forEach((tool, rank) => fused.set(tool, (fused.get(tool) ?? 0) + 1 / (fusionK + rank)));
  }
  return [...fused.entries()].sort((a, b) => b[1] - a[1]).map(([tool]) => tool);
}

/** Port: stored tool-description vectors (SQLite in production). */
export interface EmbeddingCache {
  get(model: string, textHash: string): number[] | undefined;
  put(model: string, textHash: string, vector: number[]): void;
}

/** What the ranker is built from. */
interface EmbeddingRankerOptions extends EmbeddingWithBackoff {
  cache: EmbeddingCache;
}

/** The text embedded for a tool: its name in words, description and keywords. */
function toolEmbeddingText(tool: Tool): string {
  const keywords = tool.keywords?.length ? ` (${tool.keywords.join(", ")})` : "";
  return `${tool.name.replaceAll("_", " ")}: ${tool.description}${keywords}`;
}

/** A ToolRanker over an embedding model, degrading to "no scores" when the server fails. */
export class EmbeddingToolRanker implements ToolRanker {
  #options: EmbeddingRankerOptions;
  #failedAt: number | undefined;

  constructor(options: EmbeddingRankerOptions) {
    this.#options = options;
  }

  /** Similarity of every tool to the message, or undefined while the server is failing. */
  async scores(
    message: string,
    tools: readonly Tool[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, number> | undefined> {
    const { model, cache, now } = this.#options;
    const retryAfter = this.#options.retryAfterMs ?? 10 * 60_000;
    if (this.#failedAt !== undefined && now() - this.#failedAt < retryAfter) return undefined;
    try {
      const hashes = await Promise.all(tools.map((tool) => sha256Hex(toolEmbeddingText(tool))));
      const vectors = hashes.map((hash) => cache.get(model.model, hash));
      const missing = tools.flatMap((_tool, index) => vectors[index] ? [] : [index]);
      const texts = [message, ...missing.map((index) => toolEmbeddingText(tools[index]))];
      const embedded = await model.embed(texts, signal);
      if (embedded.length !== texts.length) {
        throw new Error(`expected ${texts.length} vectors, got ${embedded.length}`);
      }
      missing.forEach((toolIndex, position) => {
        vectors[toolIndex] = embedded[position + 1];
        cache.put(model.model, hashes[toolIndex], embedded[position + 1]);
      });
      this.#failedAt = undefined;
      return new Map(
        tools.map((tool, index) => [tool.name, cosineSimilarity(embedded[0], vectors[index]!)]),
      );
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (this.#failedAt === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#options.warn(
          `Embedding model "${model.model}" failed (${reason}); ranking tools by keywords only.`,
        );
      }
      this.#failedAt = now();
      return undefined;
    }
  }
}
