/**
 * Reads what a plugin's widget function returned: hostile text, parsed strictly into the
 * `WidgetContent` shape with every item bounded. A plain string is text lines; JSON must be an
 * object of `lines`, `rows` and `links`. Links are kept only as absolute http(s) URLs without
 * credentials (no `javascript:`, `data:` or relative links). Pure.
 */
import type { WidgetContent, WidgetLink, WidgetRow } from "./widget.ts";

/** Limits of one widget's content. */
const widgetLimits = {
  /** Characters a widget function may return at all; more is an error, not a truncation. */
  maxChars: 20_000,
  lines: 20,
  lineChars: 300,
  rows: 20,
  labelChars: 60,
  valueChars: 300,
  links: 10,
  linkTextChars: 100,
  urlChars: 2_000,
} as const;

/** A parse: the content, or why the answer is unusable. */
export type WidgetParse = { ok: true; content: WidgetContent } | { ok: false; error: string };

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** An absolute http(s) URL without user name or password, normalised; else undefined. */
export function safeLinkUrl(text: string): string | undefined {
  if (text.length > widgetLimits.urlChars) return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password) return undefined;
  return url.href;
}

/** Parses a widget function's answer. */
export function parseWidgetContent(text: string): WidgetParse {
  if (text.length > widgetLimits.maxChars) {
    return { ok: false, error: `returned more than ${widgetLimits.maxChars} characters` };
  }
  let value: unknown = text;
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { ok: false, error: "returned text that looks like JSON but is not" };
    }
  }
  let omitted = 0;
  const take = <T>(list: unknown, max: number, read: (item: unknown) => T | undefined): T[] => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      omitted++;
      return [];
    }
    const kept: T[] = [];
    for (const item of list) {
      const checked = kept.length < max ? read(item) : undefined;
      if (checked === undefined) omitted++;
      else kept.push(checked);
    }
    return kept;
  };
  const line = (item: unknown) => {
    if (typeof item !== "string" && typeof item !== "number") return undefined;
    const text = clip(String(item), widgetLimits.lineChars);
    return text ? text : undefined;
  };
  // Plain text: its non-blank lines.
  if (typeof value === "string") value = { lines: value.split("\n").filter((row) => row.trim()) };
  if (!isRecord(value)) {
    return { ok: false, error: "returned something other than text or {lines, rows, links}" };
  }
  const lines = take(own(value, "lines"), widgetLimits.lines, line);
  const rows = take(own(value, "rows"), widgetLimits.rows, (item): WidgetRow | undefined => {
    if (!isRecord(item)) return undefined;
    const label = own(item, "label");
    const shown = own(item, "value");
    if (typeof label !== "string" || !["string", "number", "boolean"].includes(typeof shown)) {
      return undefined;
    }
    return {
      label: clip(label, widgetLimits.labelChars),
      value: clip(String(shown), widgetLimits.valueChars),
    };
  });
  const links = take(own(value, "links"), widgetLimits.links, (item): WidgetLink | undefined => {
    if (!isRecord(item)) return undefined;
    const text = own(item, "text");
    const url = own(item, "url");
    if (typeof text !== "string" || typeof url !== "string") return undefined;
    const safe = safeLinkUrl(url);
    const label = clip(text, widgetLimits.linkTextChars);
    return safe && label ? { text: label, url: safe } : undefined;
  });
  return { ok: true, content: { lines, rows, links, omitted } };
}
