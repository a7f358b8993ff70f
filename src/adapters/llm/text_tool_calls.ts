/**
 * Recovers tool calls that a small model printed as text instead of native `tool_calls`
 * (`<tool_call>{…}</tool_call>`, `<|python_tag|>{…}`, fenced or bare `{"name":…,"arguments":…}`,
 * `[TOOL_CALLS][…]`, `<function=name>{…}</function>`). Only names that were offered are accepted.
 */
import { parseJson } from "../../core/chat_model.ts";

/** A tool call recovered from text, before an id is assigned. */
export interface RecoveredCall {
  name: string;
  /** Arguments as JSON text. */
  arguments: string;
}

/** What was recovered and the text left over once the calls are removed. */
export interface Recovery {
  calls: RecoveredCall[];
  remainingText: string;
}

const thinkBlock = /<think>[\s\S]*?<\/think>/g;

/** Removes `<think>…</think>` reasoning some models put in content. */
export function stripThinking(text: string): string {
  return text.replace(thinkBlock, "").trim();
}

/** Finds tool calls written as text; returns none unless every candidate names an offered tool. */
export function recoverToolCallsFromText(text: string, offered: ReadonlySet<string>): Recovery {
  const content = stripThinking(text);
  const none: Recovery = { calls: [], remainingText: text };
  if (!content || offered.size === 0) return none;
  for (const extract of extractors) {
    const found = extract(content);
    if (!found) continue;
    const calls = found.candidates.flatMap((candidate) => toCall(candidate, offered));
    if (calls.length && calls.length === found.candidates.length) {
      return { calls, remainingText: found.remainingText.trim() };
    }
  }
  return none;
}

interface Extracted {
  candidates: unknown[];
  remainingText: string;
}

type Extractor = (content: string) => Extracted | undefined;

const taggedBlock = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const functionTag = /<function=([\w.-]+)>\s*([\s\S]*?)\s*<\/function>/g;
const fencedJson = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/;

const extractors: Extractor[] = [
  (content) => {
    const blocks = [...content.matchAll(taggedBlock)];
    if (!blocks.length) return undefined;
    return {
      candidates: blocks.map((block) => parseJson(block[1])),
      remainingText: content.replace(taggedBlock, ""),
    };
  },
  (content) => {
    const blocks = [...content.matchAll(functionTag)];
    if (!blocks.length) return undefined;
    return {
      candidates: blocks.map((block) => ({
        name: block[1],
        arguments: parseJson(block[2]) ?? {},
      })),
      remainingText: content.replace(functionTag, ""),
    };
  },
  (content) => afterMarker(content, "<|python_tag|>"),
  (content) => afterMarker(content, "[TOOL_CALLS]"),
  (content) => {
    const fence = content.match(fencedJson);
    return fence ? wholeJson(fence[1]) : undefined;
  },
  (content) => wholeJson(content),
];

function afterMarker(content: string, marker: string): Extracted | undefined {
  const at = content.indexOf(marker);
  if (at < 0) return undefined;
  const parsed = wholeJson(content.slice(at + marker.length).replace(/<\|eom_id\|>\s*$/, ""));
  return parsed && { ...parsed, remainingText: content.slice(0, at) };
}

function wholeJson(text: string): Extracted | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  const parsed = parseJson(trimmed);
  if (parsed === undefined) return undefined;
  return { candidates: Array.isArray(parsed) ? parsed : [parsed], remainingText: "" };
}

function toCall(candidate: unknown, offered: ReadonlySet<string>): RecoveredCall[] {
  if (!candidate || typeof candidate !== "object" || Array.isArray(candidate)) return [];
  const record = candidate as Record<string, unknown>;
  const inner = record.function && typeof record.function === "object"
    ? record.function as Record<string, unknown>
    : record;
  const name = inner.name;
  if (typeof name !== "string" || !offered.has(name)) return [];
  const args = inner.arguments ?? inner.parameters ?? {};
  if (typeof args === "string") return [{ name, arguments: args }];
  if (typeof args !== "object" || args === null || Array.isArray(args)) return [];
  return [{ name, arguments: JSON.stringify(args) }];
}
