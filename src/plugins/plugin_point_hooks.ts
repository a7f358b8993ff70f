/**
 * Plugin hooks at the seven points beyond the tool calls (agent run, tool filter, memory,
 * heartbeat). Each point is one core hook handler at priority 100 that calls the plugins' functions
 * in their manifest order; answers are hostile and parsed strictly. A function that fails or answers
 * nonsense is skipped (audited by the caller) at the blocking and observing points (fail-open), but
 * the filters and the answer rewriters fail closed (src/core/hooks.ts does it; the error names the
 * plugin's function): a failing filter_tools hook offers none of the tools it was asked about, a
 * failing post_memory_search hook hides the results it was asked about, and a failing
 * post_agent_run hook withholds the answer (a plugin there may redact it: Radar cannot tell a
 * redactor from an observer, so every one counts as redacting; one that answers nothing keeps
 * the answer as it is).
 */
import {
  HookFailedError,
  type HookPoint,
  type HookRegistration,
  type MemoryHit,
  memoryHitKey,
  registrationAt,
} from "../core/hooks.ts";
import type { HookEntry } from "./plugin_hook_answers.ts";
import { hookMessageChars, parsePreHookResult, pluginHookPriority } from "./plugin_hook_answers.ts";

/** The points plugin hooks reach through this file. */
export const otherHookPoints = [
  "pre_agent_run",
  "filter_tools",
  "post_agent_run",
  "pre_memory_store",
  "post_memory_search",
  "pre_heartbeat",
  "post_heartbeat",
] as const satisfies readonly HookPoint[];

/** The points whose plugin hooks fail closed (see the file comment). */
const failsClosed = new Set<HookPoint>(["filter_tools", "post_memory_search", "post_agent_run"]);

/** The source name of these registrations. */
export const otherPointsSource = "plugins:points";

/** A post_memory_search answer item's key: a bare number is a fact id, else `{id, kind}`. */
function answeredHitKey(item: unknown): string {
  const hit = typeof item === "number" ? { id: item } : item as { id?: unknown; kind?: unknown };
  if (typeof hit?.id !== "number") return "";
  return hit.kind === undefined || typeof hit.kind === "string"
    ? memoryHitKey({ id: hit.id, kind: hit.kind })
    : "";
}

/** Calls one hook function: its text answer, or undefined when it failed (already audited). */
export interface PointCaller {
  call(
    entry: HookEntry,
    args: Record<string, unknown>,
    conversationId?: number,
  ): Promise<string | undefined>;
  invalid(entry: HookEntry, reason: string): void;
}

/** Characters of an answer a post_agent_run hook may return. */
const maxResponseChars = 20_000;

function parseJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : null;
  } catch {
    return undefined;
  }
}

function field(text: string, key: string): unknown {
  const value = parseJson(text);
  if (value === null) return null; // nothing: keep as is
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : null;
}

/** The handler of one point over its plugin hook entries (sorted by manifest priority). */
export function pointRegistration(
  point: typeof otherHookPoints[number],
  entries: readonly HookEntry[],
  caller: PointCaller,
): HookRegistration {
  const base = {
    name: `plugin ${point} hooks`,
    priority: pluginHookPriority,
    source: otherPointsSource,
    description: entries.map((entry) => `${entry.plugin.folder.name}.${entry.function}`).join(", "),
    failClosed: failsClosed.has(point),
  };
  const nameOf = (entry: HookEntry) => `${entry.plugin.folder.name}.${entry.function}`;
  const block = async (args: Record<string, unknown>, conversationId?: number) => {
    for (const entry of entries) {
      const text = await caller.call(entry, args, conversationId);
      if (text === undefined) continue;
      const answer = parsePreHookResult(text);
      if (answer.kind === "block") {
        return {
          blocked: true as const,
          message: `Blocked by plugin ${entry.plugin.folder.name}: ${answer.message}`,
        };
      }
      if (answer.kind === "invalid") caller.invalid(entry, answer.reason);
    }
    return undefined;
  };
  switch (point) {
    case "pre_agent_run":
      return registrationAt(point, base, (input) =>
        block({
          user_message: input.userMessage,
          conversation_id: input.conversationId,
          kind: input.kind,
        }, input.conversationId));
    case "pre_memory_store":
      return registrationAt(
        point,
        base,
        (input) => block({ content: input.content, source: input.category }),
      );
    case "pre_heartbeat":
      return registrationAt(point, base, (input) => block({ event_count: input.eventCount }));
    case "filter_tools":
      return registrationAt(point, base, async (input) => {
        let tools: readonly string[] = input.tools;
        for (const entry of entries) {
          // A tool filter fails closed: a plugin that crashes, times out or answers nonsense
          // makes the core offer none of these tools this run (src/core/hooks.ts).
          const name = nameOf(entry);
          const text = await caller.call(entry, { tools });
          if (text === undefined) {
            throw new HookFailedError(name, `tool filter ${name} did not answer`);
          }
          const value = field(text, "tools");
          if (value === null) continue;
          if (!Array.isArray(value) || !value.every((name) => typeof name === "string")) {
            throw new HookFailedError(
              name,
              `tool filter ${name} returned something other than {tools: [names]}`,
            );
          }
          const kept = new Set(value);
          tools = tools.filter((name) => kept.has(name));
        }
        return tools;
      });
    case "post_agent_run":
      return registrationAt(point, base, async (input) => {
        let response = input.response;
        for (const entry of entries) {
          const text = await caller.call(entry, {
            user_message: input.userMessage,
            response,
            conversation_id: input.conversationId,
          }, input.conversationId);
          // An answer rewriter fails closed: the core withholds the answer (src/core/hooks.ts).
          const name = nameOf(entry);
          if (text === undefined) {
            throw new HookFailedError(name, `redacting hook ${name} did not answer`);
          }
          const value = field(text, "response");
          if (value === null) continue;
          if (typeof value !== "string") {
            throw new HookFailedError(
              name,
              `redacting hook ${name} returned something other than {response}`,
            );
          }
          response = value.slice(0, maxResponseChars);
        }
        return response;
      });
    case "post_memory_search":
      return registrationAt(point, base, async (input) => {
        let results: readonly MemoryHit[] = input.results;
        for (const entry of entries) {
          // A memory filter fails closed: a plugin that crashes, times out or answers nonsense
          // makes the core hide these results (src/core/hooks.ts), never pass them unfiltered.
          const name = nameOf(entry);
          const text = await caller.call(entry, { query: input.query, results });
          if (text === undefined) {
            throw new HookFailedError(name, `memory filter ${name} did not answer`);
          }
          const value = field(text, "results");
          if (value === null) continue;
          if (!Array.isArray(value)) {
            throw new HookFailedError(
              name,
              `memory filter ${name} returned something other than {results: [...]}`,
            );
          }
          // Only kind and id count: a plugin can drop or reorder hits, never rewrite or add them.
          const byKey = new Map(results.map((hit) => [memoryHitKey(hit), hit]));
          results = value.map((item) => byKey.get(answeredHitKey(item)))
            .filter((hit): hit is MemoryHit => hit !== undefined);
        }
        return results;
      });
    case "post_heartbeat":
      return registrationAt(point, base, async (input) => {
        for (const entry of entries) {
          await caller.call(entry, {
            event_count: input.eventCount,
            success: input.success,
            error: (input.error ?? "").slice(0, hookMessageChars),
          });
        }
      });
  }
}
