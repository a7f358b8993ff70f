/** Keyword relevance of tools to a message: cheap, deterministic, no model call. */
import type { Tool } from "./tool.ts";

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

/** Tools with any relevance to the message, most relevant first (ties keep order). */
export function rankByRelevance(message: string, tools: readonly Tool[]): Tool[] {
  const stems = new Set(wordStems(message));
  return tools
    .map((tool, index) => ({ tool, index, score: relevanceScore(stems, tool) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.tool);
}
