/**
 * What plugin hooks answer, read strictly (shared by the tool-call hooks in plugin_hooks.ts and the
 * other points in plugin_point_hooks.ts, so neither imports the other's module).
 */
import { textForTerminal } from "../core/terminal_text.ts";
import type { LoadedPlugin } from "./plugin_inventory.ts";

/** Characters of a block message or note a hook may add. */
export const hookMessageChars = 300;

/** A pre_tool_call hook's answer. */
export type PreHookAnswer =
  | { kind: "allow" }
  | { kind: "block"; message: string }
  | { kind: "invalid"; reason: string };

/** A post_tool_call hook's answer. */
export type PostHookAnswer = { kind: "note"; note?: string } | { kind: "invalid"; reason: string };

/** Flattens and shortens a hook message (control characters removed). */
export function short(text: string): string {
  const flat = textForTerminal(text).replace(/\s+/g, " ").trim();
  return flat.length > hookMessageChars ? `${flat.slice(0, hookMessageChars - 1)}…` : flat;
}

function parseObject(text: string): Record<string, unknown> | null | undefined {
  if (text.trim() === "") return null;
  try {
    const value = JSON.parse(text);
    if (value === null) return null;
    return typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a pre_tool_call result: nothing, `{}` or `{blocked: false}` allows; `{blocked: true,
 * message}` blocks; anything else is invalid (and the call goes on).
 */
export function parsePreHookResult(text: string): PreHookAnswer {
  const value = parseObject(text);
  if (value === null) return { kind: "allow" };
  if (
    value === undefined || (Object.hasOwn(value, "blocked") && typeof value.blocked !== "boolean")
  ) {
    return { kind: "invalid", reason: "returned something other than {blocked, message}" };
  }
  if (value.blocked !== true) return { kind: "allow" };
  const message = typeof value.message === "string" ? short(value.message) : "";
  return { kind: "block", message: message || "no reason given" };
}

/** Reads a post_tool_call result: nothing, or `{note: "…"}` to add a short note. */
export function parsePostHookResult(text: string): PostHookAnswer {
  const value = parseObject(text);
  if (value === null) return { kind: "note" };
  if (value === undefined || (Object.hasOwn(value, "note") && typeof value.note !== "string")) {
    return { kind: "invalid", reason: "returned something other than {note}" };
  }
  const note = typeof value.note === "string" ? short(value.note) : "";
  return { kind: "note", note: note || undefined };
}

/** One plugin hook function at one point. */
export interface HookEntry {
  plugin: LoadedPlugin;
  function: string;
  priority: number;
}

/** The priority plugin hooks run at among all hooks (config rules run at 50 by default). */
export const pluginHookPriority = 100;
