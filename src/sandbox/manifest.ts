/**
 * The plugin manifest (`manifest.yaml`): what a plugin is, what it provides and what it asks for.
 * Everything here is hostile input until `parseManifest` accepted it.
 */
import { z } from "zod";
import { parse as parseYaml } from "yaml";
import { hookPoints } from "../core/hooks.ts";
import { firstLine } from "../core/errors.ts";
import { describeIssue, lazyValue } from "../core/zod_issues.ts";

/** Bounds of a widget's refresh interval in seconds (0: only when the page loads). */
const widgetRefreshBounds = { min: 30, max: 86_400 } as const;

/**
 * The manifest's schemas, built on the first manifest read (a run with no plugin never reads one),
 * not while Radar starts.
 */
const schemas = lazyValue(() => {
  const identifier = z.string().regex(
    /^[a-z][a-z0-9_]{0,47}$/,
    "expected lowercase letters, digits and _ (start with a letter, at most 48 characters)",
  );

  const shorthandParameter = z.object({
    type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
    description: z.string().max(300).default(""),
    optional: z.boolean().default(false),
  });

  const jsonSchemaObject = z.object({
    type: z.literal("object"),
    properties: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    required: z.array(z.string()).default([]),
  }).passthrough();

  const toolEntry = z.object({
    name: identifier,
    description: z.string().min(1).max(300),
    parameters: z.union([jsonSchemaObject, z.record(z.string(), shorthandParameter)]).default({}),
  });

  const hookEntry = z.object({
    hook_point: z.enum(hookPoints),
    function: identifier,
    priority: z.number().int().min(0).max(100).default(50),
    description: z.string().max(300).default(""),
  });

  const promptVariableEntry = z.object({
    name: identifier,
    description: z.string().max(300).default(""),
  });

  const widgetEntry = z.object({
    // Shown in terminals (`radar plugin show`) too: no control characters.
    title: z.string().min(1).max(80).regex(
      // deno-lint-ignore no-control-regex
      /^[^\u0000-\u001f\u007f-\u009f]*$/,
      "no control characters",
    ),
    /** The exported function that returns the widget's content (data, never HTML). */
    function: identifier.default("widget"),
    refresh_interval: z.number().int().refine(
      (seconds) =>
        seconds === 0 || (seconds >= widgetRefreshBounds.min && seconds <= widgetRefreshBounds.max),
      `expected 0 (on page load only) or ${widgetRefreshBounds.min} to ${widgetRefreshBounds.max} seconds`,
    ).default(0),
  }).strict();

  const permissionList = z.array(z.string().min(1).max(300)).max(32).default([]);

  const permissionsSchema = z.object({
    read: permissionList,
    write: permissionList,
    net: permissionList,
    env: permissionList,
  }).strict().prefault({});

  /** The manifest as written (zod-validated). */
  const manifestSchema = z.object({
    name: identifier,
    version: z.string().regex(/^\d+\.\d+\.\d+$/, "expected a version like 1.0.0"),
    description: z.string().min(1).max(500),
    author: z.string().max(100).default("unknown"),
    trust_level: z.enum(["sandbox", "local"]),
    permissions: z.preprocess(
      (value) => (Array.isArray(value) && value.length === 0 ? {} : value),
      permissionsSchema,
    ),
    capabilities: z.array(z.enum(["tool", "hook", "prompt_variables", "personality", "widget"]))
      .min(1).default(["tool"]),
    tools: z.array(toolEntry).max(40).default([]),
    hooks: z.array(hookEntry).max(10).default([]),
    prompt_variables: z.array(promptVariableEntry).max(10).default([]),
    /** Files under `personalities/` the plugin bundles (capability `personality`). */
    personalities: z.array(
      z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}\.md$/, "expected a file name like wordsmith.md"),
    ).max(10).default([]),
    /** The dashboard widget (capability `widget`); `null` as the guide writes it means none. */
    widget: widgetEntry.nullish(),
    created_at: z.string().optional(),
  });
  return { manifestSchema, toolEntry, shorthandParameter };
});

type ManifestSchemas = ReturnType<typeof schemas>;

/** A manifest after parsing: tool parameters are always JSON Schema objects. */
export interface PluginManifest extends Omit<z.output<ManifestSchemas["manifestSchema"]>, "tools"> {
  tools: PluginToolSpec[];
}

/** One tool a plugin provides, with its parameters as a JSON Schema object. */
export interface PluginToolSpec {
  name: string;
  description: string;
  parameters: JsonObjectSchema;
}

/** The JSON Schema shape accepted for tool parameters. */
export interface JsonObjectSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  [key: string]: unknown;
}

/** The result of reading a manifest: the manifest or readable problems. */
export type ManifestResult = { ok: true; manifest: PluginManifest } | {
  ok: false;
  errors: string[];
};

const maxSchemaChars = 8_000;

/** Converts the `{name: {type, description, optional}}` shorthand to JSON Schema. */
function toJsonSchema(
  parameters: z.output<ManifestSchemas["toolEntry"]>["parameters"],
): JsonObjectSchema {
  if ("type" in parameters && parameters.type === "object") {
    return parameters as JsonObjectSchema;
  }
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (
    const [name, entry] of Object.entries(
      parameters as Record<string, z.output<ManifestSchemas["shorthandParameter"]>>,
    )
  ) {
    properties[name] = entry.description
      ? { type: entry.type, description: entry.description }
      : { type: entry.type };
    if (!entry.optional) required.push(name);
  }
  return { type: "object", properties, required };
}

/**
 * Validates a parsed manifest object. `folderName`, when given, must equal the manifest's name.
 *
 * @example
 * const result = validateManifest({ name: "echo", version: "1.0.0", description: "Echo",
 *   trust_level: "sandbox", tools: [{ name: "echo", description: "Echo text" }] });
 */
export function validateManifest(value: unknown, folderName?: string): ManifestResult {
  const parsed = schemas().manifestSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => describeIssue(issue, { root: "(manifest)" })),
    };
  }
  const data = parsed.data;
  const errors: string[] = [];
  if (folderName !== undefined && folderName !== data.name) {
    errors.push(`name: "${data.name}" must match the folder name "${folderName}"`);
  }
  const tools = data.tools.map((tool) => ({ ...tool, parameters: toJsonSchema(tool.parameters) }));
  for (const tool of tools) {
    if (JSON.stringify(tool.parameters).length > maxSchemaChars) {
      errors.push(`tools.${tool.name}.parameters: longer than ${maxSchemaChars} characters`);
    }
  }
  const names = [
    ...tools.map((t) => t.name),
    ...data.hooks.map((h) => h.function),
    ...(data.widget ? [data.widget.function] : []),
  ];
  const duplicates = names.filter((name, index) => names.indexOf(name) !== index);
  if (duplicates.length) errors.push(`tools: duplicate function names ${duplicates.join(", ")}`);
  if (data.capabilities.includes("tool") && !tools.length) {
    errors.push("tools: capability `tool` needs at least one tool");
  }
  if (data.capabilities.includes("hook") && !data.hooks.length) {
    errors.push("hooks: capability `hook` needs at least one hook");
  }
  if (data.capabilities.includes("prompt_variables") && !data.prompt_variables.length) {
    errors.push("prompt_variables: capability `prompt_variables` needs at least one variable");
  }
  if (data.capabilities.includes("personality") && !data.personalities.length) {
    errors.push("personalities: capability `personality` needs at least one personality file");
  }
  if (data.capabilities.includes("widget") !== Boolean(data.widget)) {
    errors.push(
      data.widget
        ? "capabilities: a `widget:` section needs the capability `widget`"
        : "widget: capability `widget` needs a `widget:` section (title, function, refresh_interval)",
    );
  }
  const asked = Object.values(data.permissions).some((list) => list.length > 0);
  if (data.trust_level === "sandbox" && asked) {
    errors.push(
      "permissions: a sandbox plugin cannot ask for permissions (use trust_level: local)",
    );
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, manifest: { ...data, tools } };
}

/** Parses `manifest.yaml` text and validates it. */
export function parseManifest(text: string, folderName?: string): ManifestResult {
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 10 });
  } catch (error) {
    const reason = firstLine(error);
    return { ok: false, errors: [`manifest.yaml is not valid YAML: ${reason}`] };
  }
  if (Array.isArray(value)) {
    return { ok: false, errors: ["manifest.yaml must be a mapping"] };
  }
  return validateManifest(value ?? {}, folderName);
}
