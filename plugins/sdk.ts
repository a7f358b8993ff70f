/**
 * The plugin SDK: the only module a Radar plugin's `tool.ts` may rely on (by copying these types
 * into its own folder or importing them relatively). A plugin exports one function per tool; each
 * receives the validated arguments and returns text (or a JSON-serialisable value). Hooks
 * (`capabilities: [hook]`) and prompt variables (`capabilities: [prompt_variables]`) are exported
 * functions too, typed below.
 */

/** Arguments the model passed to a plugin tool, after validation against its parameters. */
export type PluginArguments = Record<string, unknown>;

/** What a plugin tool returns: text for the model, or a value Radar serialises as JSON. */
export type PluginResult = string | number | boolean | null | PluginResult[] | {
  [key: string]: PluginResult;
};

/** The shape of one exported plugin tool function. */
export type PluginTool = (args: PluginArguments) => PluginResult | Promise<PluginResult>;

/** What a `pre_tool_call` hook receives: the tool about to run and its validated arguments. */
export interface PreToolCallInput {
  tool_name: string;
  arguments: PluginArguments;
}

/** What a `post_tool_call` hook receives (the result is cut to its first 4000 characters). */
export interface PostToolCallInput extends PreToolCallInput {
  result: string;
  success: boolean;
}

/**
 * A `pre_tool_call` hook's answer: return nothing (or `{ blocked: false }`) to let the call run,
 * `{ blocked: true, message }` to stop it; the model sees the message (at most 300 characters).
 */
export type HookResult = { blocked: boolean; message?: string } | undefined | void;

/** A `post_tool_call` hook's answer: nothing, or a short note appended to the tool result. */
export type PostHookResult = { note?: string } | undefined | void;

/** A `pre_tool_call` hook function (named in the manifest's `hooks` list). */
export type PreToolCallHook = (input: PreToolCallInput) => HookResult | Promise<HookResult>;

/** A `post_tool_call` hook function. */
export type PostToolCallHook = (
  input: PostToolCallInput,
) => PostHookResult | Promise<PostHookResult>;

/**
 * Hooks at the other points (manifest `hook_point`), each a function of one object, snake_case:
 * - `pre_agent_run` `{user_message, conversation_id, kind}`, `pre_memory_store` `{content, source}`,
 *   `pre_heartbeat` `{event_count}`: return a `HookResult` to block.
 * - `filter_tools` `{tools: string[]}`: return `{tools}` (only names it was given are kept).
 * - `post_agent_run` `{user_message, response, conversation_id}`: return `{response}` to replace it.
 * - `post_memory_search` `{query, results: [{id, category, content, kind}]}`: return `{results}`
 *   (matched back by kind and id, a bare number being a fact's id: hits can be dropped or
 *   reordered, not changed or added). `kind` is "fact", "summary" or "digest".
 * - `post_heartbeat` `{event_count, success, error}`: observe only.
 */
export type PointHook = (input: Record<string, unknown>) => unknown;

/**
 * A prompt variable function (named in the manifest's `prompt_variables` list): no arguments,
 * returns a short string (one line, at most 120 characters are shown). Radar calls it on every
 * request and shows the value to the model as quoted data, never as instructions.
 */
export type PromptVariable = () => string | Promise<string>;

/**
 * What a dashboard widget function returns (capability `widget`; the manifest's `widget:` names
 * it, default `widget`). Data, never HTML: plain text (its lines), or `{lines, rows, links}`.
 * Radar escapes every character, keeps only absolute http(s) links, shows at most 20 lines, 20
 * rows and 10 links (each cut short), refuses answers over 20,000 characters, and waits at most
 * 5 seconds; the answer is reused for the widget's `refresh_interval` (at least 30 seconds).
 */
export type WidgetResult = string | {
  lines?: string[];
  rows?: Array<{ label: string; value: string | number | boolean }>;
  links?: Array<{ text: string; url: string }>;
};

/** A widget function: no arguments. */
export type WidgetFunction = () => WidgetResult | Promise<WidgetResult>;
