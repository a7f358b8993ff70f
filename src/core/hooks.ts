/**
 * Hooks: the nine points where config rules and plugins may look at or shape a run (the developer
 * guide's hook system). Handlers run in priority order (lower first; config rules 50, plugins 100),
 * each isolated: a handler that throws (or whose promise rejects) is reported through `onFailure`
 * (one line saying what Radar did about it). What a failure does depends on the kind of hook:
 * - observing hooks (post_tool_call, post_heartbeat, log rules) fail open: skipped;
 * - blocking hooks (pre_*) fail open unless registered `failClosed` (a block rule whose own
 *   evaluation broke), which then blocks;
 * - filters fail closed: a failing filter_tools handler offers none of the tools it was asked
 *   about (the run goes on without them), a failing post_memory_search one hides the results it
 *   was asked about — a crashed privacy filter must not reveal what it exists to hide;
 * - a failing post_agent_run handler registered `failClosed` (redact_response rules, plugins'
 *   post_agent_run hooks) withholds the answer: one line naming the hook replaces it. Others
 *   (log_agent) are skipped.
 * With no handler at a point, a run costs one length check.
 * Deadlines are the handler's own business (plugin hooks carry the plugin host's per-call deadline;
 * config rules are synchronous).
 */
import { refused } from "./tool.ts";
import type { ToolGate, ToolObserver } from "./tool_registry.ts";

/** The hook points, in the order a run meets them. */
export const hookPoints = [
  "pre_agent_run",
  "filter_tools",
  "pre_tool_call",
  "post_tool_call",
  "pre_memory_store",
  "post_memory_search",
  "post_agent_run",
  "pre_heartbeat",
  "post_heartbeat",
] as const;

/** The hook rule types of the developer guide, with the point each one acts at. */
export const hookRuleTypes = {
  block_command_pattern: ["pre_tool_call"],
  block_path_pattern: ["pre_tool_call"],
  block_tool: ["pre_tool_call"],
  time_restrict: ["filter_tools", "pre_tool_call"],
  allowlist: ["filter_tools"],
  denylist: ["filter_tools"],
  log: ["post_tool_call"],
  block_message_pattern: ["pre_agent_run"],
  redact_response: ["post_agent_run"],
  log_agent: ["post_agent_run"],
  block_memory_pattern: ["pre_memory_store"],
  filter_memory_pattern: ["post_memory_search"],
  log_heartbeat: ["post_heartbeat", "pre_heartbeat"],
} as const satisfies Record<string, readonly HookPoint[]>;

/** One hook point. */
export type HookPoint = typeof hookPoints[number];

/** A blocking hook's answer: undefined lets the action go on. */
export type HookVerdict = { blocked: true; message: string } | undefined;

/** A remembered fact (or other memory) as post_memory_search hooks see it. */
export interface MemoryHit {
  /** The id within its kind: a fact, a summary and a digest may share one. */
  id: number;
  /** A fact's category, or another memory's label. */
  category: string;
  content: string;
  /** Where the hit comes from ("fact", "summary", "digest"…); absent: a fact. */
  kind?: string;
}

/** What tells hits apart: kind and id (`fact:12`, `digest:12`). */
export function memoryHitKey(hit: Pick<MemoryHit, "id" | "kind">): string {
  return `${hit.kind ?? "fact"}:${hit.id}`;
}

/** What each point's handler receives and may return. */
export interface HookSignatures {
  pre_agent_run: (
    input: { userMessage: string; conversationId: number; kind: string },
  ) => HookVerdict;
  /** Returns the names to keep (a subset of `tools`); undefined keeps all. */
  filter_tools: (
    input: { tools: readonly string[]; kind: string },
  ) => readonly string[] | undefined;
  pre_tool_call: (
    input: { toolName: string; arguments: unknown; conversationId?: number },
  ) => HookVerdict;
  /** Returns a short note appended to the result the model sees, or undefined. */
  post_tool_call: (input: {
    toolName: string;
    arguments: unknown;
    result: string;
    success: boolean;
    conversationId?: number;
  }) => string | undefined;
  pre_memory_store: (input: { content: string; category: string }) => HookVerdict;
  /** Returns the results to keep (filtered or re-ranked); undefined keeps them. */
  post_memory_search: (
    input: { query: string; results: readonly MemoryHit[] },
  ) => readonly MemoryHit[] | undefined;
  /** Returns a replacement answer, or undefined to keep it. */
  post_agent_run: (input: {
    userMessage: string;
    response: string;
    conversationId: number;
    kind: string;
  }) => string | undefined;
  pre_heartbeat: (input: { eventCount: number }) => HookVerdict;
  post_heartbeat: (input: { eventCount: number; success: boolean; error?: string }) => void;
}

type Awaitable<T> = T | Promise<T>;
export type HookHandler<P extends HookPoint> = (
  ...args: Parameters<HookSignatures[P]>
) => Awaitable<ReturnType<HookSignatures[P]>>;

/** One registered handler. */
export interface HookRegistration<P extends HookPoint = HookPoint> {
  name: string;
  point: P;
  /** Lower runs first (config rules default to 50, plugins 100). */
  priority: number;
  /** Where it came from: "config" or "plugin:NAME" (list and audit). */
  source: string;
  description: string;
  /**
   * A failing handler blocks (pre_* points) or withholds the answer (post_agent_run) instead of
   * being skipped. Filters (filter_tools, post_memory_search) fail closed whether set or not.
   */
  failClosed?: boolean;
  handler: HookHandler<P>;
}

/** Told about each handler that failed (and was skipped, or blocked when fail-closed). */
type HookFailureListener = (registration: HookRegistration, error: string) => void;

/**
 * Thrown by a handler that runs several hooks (the plugins' handler of a point) to name the one
 * that failed, e.g. `guard.redact`: the withheld-answer line names it.
 */
export class HookFailedError extends Error {
  /** The failing hook's name. */
  readonly hookName: string;
  constructor(hookName: string, message: string) {
    super(message);
    this.hookName = hookName;
  }
}

/** The line that replaces an answer when a redacting post_agent_run hook failed. */
export function withheldAnswer(hookName: string): string {
  return `The answer was withheld because the redacting hook "${hookName}" failed.`;
}

/** Holds the handlers of every point and runs them. */
export class Hooks {
  #byPoint = new Map<HookPoint, HookRegistration[]>(hookPoints.map((point) => [point, []]));
  #onFailure: HookFailureListener;

  constructor(onFailure: HookFailureListener = () => {}) {
    this.#onFailure = onFailure;
  }

  /** Adds a handler (stable order: priority, then registration order). */
  register<P extends HookPoint>(registration: HookRegistration<P>): void {
    const list = [...this.#byPoint.get(registration.point)!, registration as HookRegistration];
    list.sort((a, b) => a.priority - b.priority);
    this.#byPoint.set(registration.point, list);
  }

  /** Removes every handler of a source (e.g. when a plugin is disabled or config reloads). */
  unregisterSource(source: string): void {
    for (const [point, list] of this.#byPoint) {
      this.#byPoint.set(point, list.filter((registration) => registration.source !== source));
    }
  }

  /** Every handler, by point then priority. */
  list(): HookRegistration[] {
    return hookPoints.flatMap((point) => this.#byPoint.get(point)!);
  }

  /** True when some handler listens at `point`. */
  has(point: HookPoint): boolean {
    return this.#byPoint.get(point)!.length > 0;
  }

  /** Runs a blocking point: the first block wins. */
  async block<P extends "pre_agent_run" | "pre_tool_call" | "pre_memory_store" | "pre_heartbeat">(
    point: P,
    input: Parameters<HookSignatures[P]>[0],
  ): Promise<HookVerdict> {
    return (await this.blockedBy(point, input))?.verdict;
  }

  /**
   * The first block at a blocking point and whose words its message is: "config" for a config
   * rule (or Radar's own "could not check this"), "plugin:NAME" for a plugin's hook.
   */
  async blockedBy<
    P extends "pre_agent_run" | "pre_tool_call" | "pre_memory_store" | "pre_heartbeat",
  >(
    point: P,
    input: Parameters<HookSignatures[P]>[0],
  ): Promise<{ verdict: NonNullable<HookVerdict>; from: string } | undefined> {
    for (const registration of this.#byPoint.get(point)!) {
      const outcome = await this.#run(registration, input);
      if (!outcome.ok) {
        if (registration.failClosed) {
          const message = `${registration.name} could not check this`;
          return { verdict: { blocked: true, message }, from: "config" };
        }
        continue;
      }
      const verdict = outcome.value as HookVerdict;
      if (verdict?.blocked) return { verdict, from: registration.source };
    }
    return undefined;
  }

  /**
   * filter_tools: each handler narrows the previous one's list. A filter that fails offers none
   * of the tools it was asked about (fail-closed: a crashed filter must not offer what it exists
   * to hide); the run goes on without them, and its one warning line says so.
   */
  async filterTools(tools: readonly string[], kind: string): Promise<readonly string[]> {
    return await this.#narrow(
      "filter_tools",
      tools,
      (kept) => ({ tools: kept, kind }),
      (count) => `; none of the ${count} tool(s) it was asked about are offered this run`,
      (kept, answer) => {
        const allowed = new Set(answer as string[]);
        return kept.filter((name) => allowed.has(name)); // a hook may drop tools, never add them
      },
    );
  }

  /** post_tool_call: every handler sees the call; their notes joined (none: undefined). */
  async observeToolCall(
    input: Parameters<HookSignatures["post_tool_call"]>[0],
  ): Promise<string | undefined> {
    const notes: string[] = [];
    for (const registration of this.#byPoint.get("post_tool_call")!) {
      const outcome = await this.#run(registration, input);
      if (outcome.ok && typeof outcome.value === "string" && outcome.value) {
        notes.push(outcome.value);
      }
    }
    return notes.length ? notes.join("\n") : undefined;
  }

  /**
   * post_memory_search: each handler filters or re-ranks the previous one's results. A filter
   * that fails hides the results it was asked about (fail-closed: a privacy filter that crashes
   * must not reveal what it exists to hide); its one warning line says so.
   */
  async filterMemories<T extends MemoryHit>(
    query: string,
    results: readonly T[],
  ): Promise<readonly T[]> {
    return await this.#narrow(
      "post_memory_search",
      results,
      (kept) => ({ query, results: kept }),
      (count) => `; the ${count} memory result(s) it was asked about are hidden`,
      (kept, answer) => {
        const known = new Map(kept.map((hit) => [memoryHitKey(hit), hit]));
        // Results are matched back by kind and id: a hook can drop or reorder, never invent them.
        return (answer as MemoryHit[]).map((hit) => hit && known.get(memoryHitKey(hit)))
          .filter((hit): hit is T => hit !== undefined);
      },
    );
  }

  /**
   * A filter point: each handler narrows the previous one's list (`matchBack` keeps what it
   * answered of it). A handler that fails keeps nothing, `hidden` saying so in its warning.
   */
  async #narrow<T>(
    point: "filter_tools" | "post_memory_search",
    items: readonly T[],
    input: (kept: readonly T[]) => unknown,
    hidden: (count: number) => string,
    matchBack: (kept: readonly T[], answer: unknown[]) => readonly T[],
  ): Promise<readonly T[]> {
    let kept = items;
    for (const registration of this.#byPoint.get(point)!) {
      const outcome = await this.#run(registration, input(kept), hidden(kept.length));
      if (!outcome.ok) return [];
      if (Array.isArray(outcome.value)) kept = matchBack(kept, outcome.value);
    }
    return kept;
  }

  /**
   * post_agent_run: each handler may replace the answer. A failing `failClosed` handler (a
   * redacting one) withholds it: one line naming the hook is the answer (stored and shown).
   */
  async transformAnswer(
    input: Parameters<HookSignatures["post_agent_run"]>[0],
  ): Promise<string> {
    let response = input.response;
    for (const registration of this.#byPoint.get("post_agent_run")!) {
      const outcome = await this.#run(
        registration,
        { ...input, response },
        registration.failClosed ? "; the answer was withheld" : "",
      );
      if (!outcome.ok) {
        if (registration.failClosed) return withheldAnswer(outcome.hookName);
        continue;
      }
      if (typeof outcome.value === "string") response = outcome.value;
    }
    return response;
  }

  /** post_heartbeat: observe only. */
  async observeHeartbeat(
    input: Parameters<HookSignatures["post_heartbeat"]>[0],
  ): Promise<void> {
    for (const registration of this.#byPoint.get("post_heartbeat")!) {
      await this.#run(registration, input);
    }
  }

  /** Runs one handler; a failure is reported (with what Radar did about it) and returns not ok. */
  async #run(
    registration: HookRegistration,
    input: unknown,
    consequence = "",
  ): Promise<{ ok: true; value: unknown } | { ok: false; hookName: string }> {
    try {
      const handler = registration.handler as (input: unknown) => unknown;
      return { ok: true, value: await handler(input) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#onFailure(registration, reason + consequence);
      return {
        ok: false,
        hookName: error instanceof HookFailedError ? error.hookName : registration.name,
      };
    }
  }
}

/** The pre_tool_call point as a registry gate: a block becomes a refused result the model sees. */
export function hookToolGate(hooks: Hooks): ToolGate {
  return async (call, context) => {
    const blocked = await hooks.blockedBy("pre_tool_call", {
      toolName: call.tool.name,
      arguments: call.arguments,
      conversationId: context.conversationId,
    });
    if (!blocked) return undefined;
    // A config rule's message is the user's own words: a run reads nothing from it.
    return blocked.from === "config"
      ? { ...refused(blocked.verdict.message), label: "own_words" }
      : refused(blocked.verdict.message);
  };
}

/** The post_tool_call point as a registry observer (notes follow the result). */
export function hookToolObserver(hooks: Hooks): ToolObserver {
  return (call, context) =>
    hooks.observeToolCall({
      toolName: call.tool.name,
      arguments: call.arguments,
      result: call.result.text,
      success: call.result.outcome === "ok",
      conversationId: context.conversationId,
    });
}

/** Builds a registration whose handler is typed for its point. */
export function registrationAt<P extends HookPoint>(
  point: P,
  fields: Omit<HookRegistration, "point" | "handler">,
  handler: HookHandler<P>,
): HookRegistration {
  return { ...fields, point, handler } as unknown as HookRegistration;
}
