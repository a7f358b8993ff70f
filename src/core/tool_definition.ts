/**
 * Built-in tool definitions from zod schemas: JSON Schema for the model, validation of calls.
 * A built-in tool's schema is built on its first use and the JSON Schema it offers is written
 * ahead (src/core/tool_parameters.ts), so starting Radar builds and converts no tool schema.
 */
import { z } from "zod";
import type {
  Destinations,
  ParseResult,
  ResultLabel,
  Tool,
  ToolContext,
  ToolEffect,
  ToolOutput,
} from "./tool.ts";
import { describeIssues, lazyValue } from "./zod_issues.ts";

/** Converts a zod schema to compact JSON Schema (no $schema, additionalProperties, lengths or bounds). */
export function compactJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return stripNoise(json) as Record<string, unknown>;
}

const omittedSchemaKeys = new Set([
  "$schema",
  "additionalProperties",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "default",
  // Object keys are strings in JSON anyway.
  "propertyNames",
]);

function stripNoise(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((item) => stripNoise(item));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      // Keys of `properties` are parameter names (a parameter may be called "default").
      if (names) {
        out[key] = stripNoise(inner);
        continue;
      }
      // Length and number bounds and defaults are still enforced by zod when the call is validated
      // (the model learns from the error); offering them costs tokens on every request.
      if (omittedSchemaKeys.has(key)) continue;
      out[key] = stripNoise(inner, key === "properties");
    }
    return out;
  }
  return value;
}

/** Definition of a built-in tool with a zod input schema (the fields it shares: as on `Tool`). */
export interface ToolDefinition<Schema extends z.ZodType>
  extends
    Omit<Tool, "parameters" | "source" | "effect" | "results" | "destinations" | "parse" | "run"> {
  /**
   * The zod schema every call is validated with, or a function that builds it, called once before
   * the first call is read or a declaration decided: a built-in tool builds it on first use.
   */
  input: Schema | (() => Schema);
  /**
   * The JSON Schema the model is offered, written ahead: the tool's entry in
   * src/core/tool_parameters.ts (`deno task docs`; tests/tools/tool_parameters_test.ts fails when
   * it is not `compactJsonSchema` of the offered schema). Absent: converted from it now.
   */
  parameters?: Record<string, unknown>;
  /** The schema the model is offered when it is narrower than `input` (default: `input`). */
  offered?: () => z.ZodType;
  /**
   * What a call does to the world (see `Tool.effect`). Every built-in tool declares it
   * (tests/tools/tool_effects_test.ts); absent: the strictest for a tool that is not read-only.
   */
  effect?: ToolEffect | ((args: z.output<Schema>) => ToolEffect);
  /** The label of its results (see `Tool.results`), fixed or by the parsed arguments. */
  results?: ResultLabel | ((args: z.output<Schema>) => ResultLabel);
  /** Where a call sends (see `Tool.destinations`), by the parsed arguments. */
  destinations?: (args: z.output<Schema>, call?: { conversationId?: number }) => Destinations;
  run(args: z.output<Schema>, context: ToolContext): Promise<ToolOutput>;
}

/**
 * Defines a built-in tool from a zod schema. Radar's own tools pass `input` as a `lazyValue` and
 * their entry of src/core/tool_parameters.ts as `parameters`, so defining one builds no schema.
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeat text",
 *   input: z.object({ text: z.string().describe("Text to repeat") }),
 *   run: ({ text }) => Promise.resolve(text),
 * });
 */
export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool {
  const { input: given, parameters, offered, effect, results, destinations, run, ...shared } =
    definition;
  const input = typeof given === "function" ? lazyValue(given) : () => given;
  const offeredSchema = offered ?? input;
  const tool: Tool = {
    ...shared,
    parameters: parameters ?? compactJsonSchema(offeredSchema()),
    source: "builtin",
    effect: typeof effect === "function" ? declaredByArguments(input, effect, "sends_out") : effect,
    results: typeof results === "function"
      ? declaredByArguments(input, results, "private")
      : results,
    destinations: destinations && ((args: unknown, call?: { conversationId?: number }) => {
      const parsed = input().safeParse(args);
      return parsed.success ? destinations(parsed.data, call) : "anywhere";
    }),
    parse(args: unknown): ParseResult {
      const parsed = input().safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, error: describeIssues(parsed.error, { root: "(arguments)" }) };
    },
    run: (args, context) => run(args as z.output<Schema>, context),
  };
  offeredSchemas.set(tool, offeredSchema);
  return tool;
}

/** Each defined tool's offered schema (its `offered`, else its `input`), for `offeredSchemaOf`. */
const offeredSchemas = new WeakMap<Tool, () => z.ZodType>();

/**
 * The zod schema a tool made by `defineTool` offers the model, built now (undefined for any other
 * tool): what its written-ahead `parameters` must be converted from (the staleness test).
 */
export function offeredSchemaOf(tool: Tool): z.ZodType | undefined {
  return offeredSchemas.get(tool)?.();
}

/** A declaration decided by the parsed arguments; unparsable arguments get the strictest. */
function declaredByArguments<Schema extends z.ZodType, Value>(
  input: () => Schema,
  decide: (args: z.output<Schema>) => Value,
  strictest: Value,
): (args: unknown) => Value {
  return (args: unknown) => {
    const parsed = input().safeParse(args);
    return parsed.success ? decide(parsed.data) : strictest;
  };
}

/**
 * A tool's run whose code loads with its first call: `load` imports the run's module and builds
 * the run, once (what the registry, offering and run guard read stays in the definition, built at
 * start); every later call reuses it.
 */
export function runOnFirstCall<Args>(
  load: () => Promise<(args: Args, context: ToolContext) => Promise<ToolOutput>>,
): (args: Args, context: ToolContext) => Promise<ToolOutput> {
  const running = lazyValue(load);
  return async (args, context) => (await running())(args, context);
}
