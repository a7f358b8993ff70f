/**
 * Plugin hooks and prompt variables, through the same warm plugin hosts as plugin tools (same
 * grant, per-call deadline, SIGKILL and respawn). They reach the core only as its ports: a
 * `ToolGate` (pre_tool_call: may block), a `ToolObserver` (post_tool_call: may add a short note)
 * and a `PromptVariableSource`. What a plugin returns is hostile: parsed strictly, flattened, cut
 * short. A hook or variable that crashes, times out, is refused or returns nonsense leaves an
 * audit row named `plugin:<plugin>:<function>`; a tool-call hook or a variable is then skipped
 * (the tool call goes on, as in the product's hook design), while the filters and answer
 * rewriters at the other points fail closed (see plugin_point_hooks.ts).
 */
import type { HookHandler, HookPoint, Hooks } from "../core/hooks.ts";
import type { AuditSink, Clock, Logger } from "../core/ports.ts";
import type { PromptVariableSource } from "../core/system_prompt.ts";
import type { ToolContext, ToolOutcome, ToolResult } from "../core/tool.ts";
import type { LoadedPlugin } from "./plugin_inventory.ts";
import {
  type HookEntry,
  parsePostHookResult,
  parsePreHookResult,
  pluginHookPriority,
  short,
} from "./plugin_hook_answers.ts";
import { type PluginHostPool, pluginOutcome } from "./plugin_tools.ts";
import { otherHookPoints, otherPointsSource, pointRegistration } from "./plugin_point_hooks.ts";

/** What the hooks need. */
interface PluginHooksOptions {
  pool: PluginHostPool;
  clock: Clock;
  logger: Logger;
  audit?: AuditSink;
  /** Monotonic milliseconds (performance.now in production). */
  elapsed?: () => number;
}

/** Characters of a tool result a post_tool_call hook sees. */
const hookResultChars = 4000;

/** A hook or variable that times out this many times in a row is paused. */
export const hookTimeoutLimit = 3;

/** How long a paused hook or variable is skipped (then tried again; one more timeout re-pauses). */
export const hookPauseMinutes = 10;

/** What a paused plugin function is: a hook at its point, or a prompt variable. */
type PausedKind = HookPoint | "prompt_variable";

/** What happens while a function of each kind is paused (its audit row says so). */
const whilePaused: Record<PausedKind, string> = {
  pre_tool_call: "this hook fails open: tool calls go on without it",
  post_tool_call: "this hook fails open: tool calls go on without it",
  pre_agent_run: "this hook fails open: runs go on without it",
  pre_memory_store: "this hook fails open: memories are stored without it",
  pre_heartbeat: "this hook fails open: heartbeats go on without it",
  post_heartbeat: "this hook fails open: heartbeats go on without it",
  filter_tools: "this filter fails closed: runs offer none of the tools it filters meanwhile",
  post_memory_search:
    "this filter fails closed: the memory results it filters are hidden meanwhile",
  post_agent_run: "this hook fails closed: answers are withheld meanwhile",
  prompt_variable: "the prompt goes out without this variable meanwhile",
};

/** The hooks and prompt variables of the enabled plugins. */
export class PluginHooks implements PromptVariableSource {
  #options: PluginHooksOptions;
  /** Consecutive timeouts and pause end (ms) per `plugin:function`. */
  #timeouts = new Map<string, { count: number; pausedUntil: number }>();
  #pre: HookEntry[] = [];
  #post: HookEntry[] = [];
  /** Hooks at the other seven points (see plugin_point_hooks.ts), by point. */
  #others = new Map<typeof otherHookPoints[number], HookEntry[]>();
  /** Where the other points' handlers are registered (re-registered on each update). */
  #registry?: Hooks;
  #variables: Array<{ plugin: LoadedPlugin; name: string }> = [];

  constructor(options: PluginHooksOptions) {
    this.#options = options;
  }

  /** Replaces the set of plugins whose hooks and variables run. */
  update(plugins: LoadedPlugin[]): void {
    const hooks = (point: string) =>
      plugins.filter((plugin) => plugin.folder.manifest.capabilities.includes("hook"))
        .flatMap((plugin) =>
          plugin.folder.manifest.hooks.filter((hook) => hook.hook_point === point).map((hook) => ({
            plugin,
            function: hook.function,
            priority: hook.priority,
          }))
        )
        .sort((a, b) =>
          a.priority - b.priority || a.plugin.folder.name.localeCompare(b.plugin.folder.name)
        );
    this.#pre = hooks("pre_tool_call");
    this.#post = hooks("post_tool_call");
    this.#others = new Map(otherHookPoints.map((point) => [point, hooks(point)]));
    if (this.#registry) this.attach(this.#registry);
    this.#variables = plugins
      .filter((plugin) => plugin.folder.manifest.capabilities.includes("prompt_variables"))
      .flatMap((plugin) =>
        plugin.folder.manifest.prompt_variables.map((variable) => ({
          plugin,
          name: variable.name,
        }))
      );
  }

  /** How many hooks and variables are active (status lines). */
  counts(): { preToolCall: number; postToolCall: number; promptVariables: number } {
    return {
      preToolCall: this.#pre.length,
      postToolCall: this.#post.length,
      promptVariables: this.#variables.length,
    };
  }

  /** The pre_tool_call hooks as one core hook handler (registered at priority 100). */
  readonly preToolCall: HookHandler<"pre_tool_call"> = async (input) => {
    const context = { conversationId: input.conversationId };
    for (const hook of this.#pre) {
      const text = await this.#call(
        hook.plugin,
        hook.function,
        { tool_name: input.toolName, arguments: input.arguments },
        context,
        "pre_tool_call",
        input.toolName,
      );
      if (text === undefined) continue;
      const answer = parsePreHookResult(text);
      if (answer.kind === "block") {
        return {
          blocked: true,
          message: `Blocked by plugin ${hook.plugin.folder.name}: ${answer.message}`,
        };
      }
      if (answer.kind === "invalid") this.#invalid(hook, answer.reason, context, input.toolName);
    }
    return undefined;
  };

  /** The post_tool_call hooks as one core hook handler (registered at priority 100). */
  readonly postToolCall: HookHandler<"post_tool_call"> = async (input) => {
    if (!this.#post.length) return undefined;
    const context = { conversationId: input.conversationId };
    const notes = await Promise.all(this.#post.map(async (hook) => {
      const text = await this.#call(
        hook.plugin,
        hook.function,
        {
          tool_name: input.toolName,
          arguments: input.arguments,
          result: input.result.slice(0, hookResultChars),
          success: input.success,
        },
        context,
        "post_tool_call",
        input.toolName,
      );
      if (text === undefined) return undefined;
      const answer = parsePostHookResult(text);
      if (answer.kind === "invalid") {
        this.#invalid(hook, answer.reason, context, input.toolName);
        return undefined;
      }
      return answer.note ? `[note from plugin ${hook.plugin.folder.name}: ${answer.note}]` : "";
    }));
    return notes.filter((note) => note).join("\n") || undefined;
  };

  /**
   * Registers handlers for the points other than the tool-call ones at priority 100, only for
   * points some plugin hooks (so a point without plugin hooks stays free); again on each update.
   */
  attach(registry: Hooks): void {
    this.#registry = registry;
    registry.unregisterSource(otherPointsSource);
    for (const [point, entries] of this.#others) {
      if (!entries.length) continue;
      registry.register(pointRegistration(point, entries, {
        call: (entry, args, conversationId) =>
          this.#call(entry.plugin, entry.function, args, { conversationId }, point),
        invalid: (entry, reason) => this.#invalid(entry, reason, {}, point),
      }));
    }
  }

  /** Each plugin hook (`radar hooks list`). */
  entries(): Array<{ point: string; plugin: string; function: string; priority: number }> {
    return [
      ...this.#pre.map((hook) => ({ point: "pre_tool_call", hook })),
      ...[...this.#others].flatMap(([point, entries]) => entries.map((hook) => ({ point, hook }))),
      ...this.#post.map((hook) => ({ point: "post_tool_call", hook })),
    ].map(({ point, hook }) => ({
      point,
      plugin: hook.plugin.folder.name,
      function: hook.function,
      priority: hook.priority,
    }));
  }

  /** Every prompt variable, fetched in parallel; failures are left out (and audited). */
  async variables(
    context: { signal: AbortSignal; conversationId?: number },
  ): Promise<Record<string, string>> {
    const values = await Promise.all(this.#variables.map(async ({ plugin, name }) => {
      const text = await this.#call(
        plugin,
        name,
        {},
        { conversationId: context.conversationId },
        "prompt_variable",
      );
      return text === undefined ? undefined : [`${plugin.folder.name}.${name}`, text] as const;
    }));
    return Object.fromEntries(values.filter((entry) => entry !== undefined));
  }

  /** Calls one plugin function; undefined (audited, logged) when it did not answer. */
  async #call(
    plugin: LoadedPlugin,
    name: string,
    args: Record<string, unknown>,
    context: Pick<ToolContext, "conversationId">,
    kind: PausedKind,
    toolName?: string,
  ): Promise<string | undefined> {
    // A hook that keeps hanging would only add its deadline to every call: after
    // `hookTimeoutLimit` timeouts in a row it counts as failed, at once, for `hookPauseMinutes`
    // (skipped where hooks fail open; where they fail closed, what it guards stays closed).
    const key = `${plugin.folder.name}:${name}`;
    const timeouts = this.#timeouts.get(key);
    const now = this.#options.clock.now().getTime();
    if (timeouts && timeouts.pausedUntil > now) return undefined;
    const elapsed = this.#options.elapsed ?? (() => 0);
    const started = elapsed();
    let result: ToolResult;
    try {
      result = pluginOutcome(await this.#options.pool.host(plugin).call(name, args));
    } catch (error) {
      result = { outcome: "error", text: `${plugin.folder.name}: ${(error as Error).message}` };
    }
    if (result.outcome !== "timeout") this.#timeouts.delete(key);
    if (result.outcome === "ok") return result.text;
    this.#record(plugin.folder.name, name, result.outcome, result.text, context, {
      durationMs: Math.max(0, elapsed() - started),
      toolName,
    });
    if (result.outcome === "timeout") {
      const count = Math.min((timeouts?.count ?? 0) + 1, hookTimeoutLimit);
      const paused = count >= hookTimeoutLimit;
      this.#timeouts.set(key, {
        count,
        pausedUntil: paused ? now + hookPauseMinutes * 60_000 : 0,
      });
      if (paused) {
        this.#record(
          plugin.folder.name,
          name,
          "refused",
          `paused for ${hookPauseMinutes} minutes after ${hookTimeoutLimit} timeouts in a row ` +
            `(${whilePaused[kind]})`,
          context,
          { toolName },
        );
      }
    }
    return undefined;
  }

  #invalid(
    hook: HookEntry,
    reason: string,
    context: Pick<ToolContext, "conversationId">,
    toolName: string,
  ): void {
    this.#record(hook.plugin.folder.name, hook.function, "error", reason, context, { toolName });
  }

  #record(
    plugin: string,
    name: string,
    outcome: ToolOutcome,
    text: string,
    context: Pick<ToolContext, "conversationId">,
    extra: { durationMs?: number; toolName?: string },
  ): void {
    const tool = `plugin:${plugin}:${name}`;
    this.#options.logger.warn(`${tool} ${outcome}: ${short(text)}`);
    this.#options.audit?.recordToolCall({
      at: this.#options.clock.now(),
      conversationId: context.conversationId,
      tool,
      arguments: JSON.stringify(extra.toolName ? { tool_name: extra.toolName } : {}),
      durationMs: extra.durationMs ?? 0,
      outcome,
      result: text,
    });
  }
}

/**
 * Puts the plugins' pre/post_tool_call hooks into the core hook registry at priority 100 (their
 * manifest priorities order them among plugins). They stay fail-open: a plugin hook that fails is
 * skipped and audited as `plugin:NAME:FUNCTION`.
 */
export function registerPluginHooks(hooks: Hooks, plugins: PluginHooks): void {
  plugins.attach(hooks);
  const common = { priority: pluginHookPriority, source: "plugins" };
  hooks.register({
    ...common,
    name: "plugin pre_tool_call hooks",
    point: "pre_tool_call",
    description: "the enabled plugins' pre_tool_call hooks",
    handler: plugins.preToolCall,
  });
  hooks.register({
    ...common,
    name: "plugin post_tool_call hooks",
    point: "post_tool_call",
    description: "the enabled plugins' post_tool_call hooks",
    handler: plugins.postToolCall,
  });
}
