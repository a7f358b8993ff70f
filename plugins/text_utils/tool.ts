/** text_utils: word count, slugs and reversal. Pure computation. */
import type { PluginArguments } from "../sdk.ts";

/** Words, lines and characters of a text. */
export function word_count(args: PluginArguments): string {
  const text = String(args.text ?? "");
  const words = text.trim() ? text.trim().split(/\s+/).length : 0;
  const lines = text ? text.split("\n").length : 0;
  return `${words} words, ${lines} lines, ${[...text].length} characters`;
}

/** A lowercase, dash-separated slug. */
export function slugify(args: PluginArguments): string {
  const max = typeof args.max_length === "number" ? args.max_length : 60;
  return String(args.text ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
}

/** The text backwards (by code point). */
export function reverse_text(args: PluginArguments): string {
  return [...String(args.text ?? "")].reverse().join("");
}
