/**
 * The plugin SDK: the only module a Radar plugin's `tool.ts` may rely on (by copying these types
 * into its own folder or importing them relatively). A plugin exports one function per tool; each
 * receives the validated arguments and returns text (or a JSON-serialisable value).
 */

/** Arguments the model passed to a plugin tool, after validation against its parameters. */
export type PluginArguments = Record<string, unknown>;

/** What a plugin tool returns: text for the model, or a value Radar serialises as JSON. */
export type PluginResult = string | number | boolean | null | PluginResult[] | {
  [key: string]: PluginResult;
};

/** The shape of one exported plugin tool function. */
export type PluginTool = (args: PluginArguments) => PluginResult | Promise<PluginResult>;
