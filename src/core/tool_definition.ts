/** Built-in tool definitions from zod schemas: JSON Schema for the model, validation of calls. */
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
  input: Schema;
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
 * Defines a built-in tool from a zod schema.
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
  const { input, effect, results, destinations, run, ...shared } = definition;
  return {
    ...shared,
    parameters: compactJsonSchema(input),
    source: "builtin",
    effect: typeof effect === "function" ? declaredByArguments(input, effect, "sends_out") : effect,
    results: typeof results === "function"
      ? declaredByArguments(input, results, "private")
      : results,
    destinations: destinations && ((args: unknown, call?: { conversationId?: number }) => {
      const parsed = input.safeParse(args);
      return parsed.success ? destinations(parsed.data, call) : "anywhere";
    }),
    parse(args: unknown): ParseResult {
      const parsed = input.safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, error: describeIssues(parsed.error, { root: "(arguments)" }) };
    },
    run: (args, context) => run(args as z.output<Schema>, context),
  };
}

/** A declaration decided by the parsed arguments; unparsable arguments get the strictest. */
function declaredByArguments<Schema extends z.ZodType, Value>(
  input: Schema,
  decide: (args: z.output<Schema>) => Value,
  strictest: Value,
): (args: unknown) => Value {
  return (args: unknown) => {
    const parsed = input.safeParse(args);
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
