/** Tool definition: one name, one short description, a validated input, a run function. */
import { z } from "zod";

/** How a tool call ended, as recorded in the audit trail. */
export type ToolOutcome = "ok" | "error" | "refused" | "timeout";

/** A tool result with its outcome. Tools may also return a plain string (outcome ok). */
export interface ToolResult {
  text: string;
  outcome: ToolOutcome;
}

/** What a tool's run function returns. */
export type ToolOutput = string | ToolResult;

/** The kind of conversation a run belongs to. */
export type ConversationKind = "chat" | "ask" | "heartbeat" | "task";

/** What a tool knows about the run it is part of. */
export interface ToolContext {
  conversationId?: number;
  kind: ConversationKind;
  /** True only when a person can answer a confirmation right now (interactive chat). */
  interactive: boolean;
  /** Asks the person a yes/no question; absent when nobody can answer. */
  confirm?: (question: string) => Promise<boolean>;
  signal: AbortSignal;
}

/** Result of validating a tool's arguments. */
export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A tool as the registry sees it, whatever its origin. */
export interface Tool {
  name: string;
  /** One short line: the model pays for every token on every call. */
  description: string;
  /** JSON Schema of the arguments object, as compact as possible. */
  parameters: Record<string, unknown>;
  /** "builtin" or "plugin:NAME". */
  source: string;
  /** Offered on every request, whatever the message. */
  alwaysOn?: boolean;
  /** Extra words that make the tool relevant to a message. */
  keywords?: string[];
  parse(args: unknown): ParseResult;
  run(args: unknown, context: ToolContext): Promise<ToolOutput>;
}

/** Marks a result as a refusal (a safety rule said no). */
export function refused(text: string): ToolResult {
  return { text, outcome: "refused" };
}

/** Marks a result as a failure the model can act on. */
export function failed(text: string): ToolResult {
  return { text, outcome: "error" };
}

/** Marks a result as a timeout. */
export function timedOut(text: string): ToolResult {
  return { text, outcome: "timeout" };
}

/** Normalises a tool output to a result. */
export function toResult(output: ToolOutput): ToolResult {
  return typeof output === "string" ? { text: output, outcome: "ok" } : output;
}

/** Formats zod issues as "path: message" lines a model can act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length ? issue.path.join(".") : "(arguments)";
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Converts a zod schema to compact JSON Schema (no $schema, additionalProperties or safe-integer bounds). */
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
  "exclusiveMinimum",
  "default",
]);

function stripNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNoise);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Length bounds, defaults and exclusive bounds are still enforced by zod when the call is
      // validated (the model learns from the error); offering them costs tokens on every request.
      if (omittedSchemaKeys.has(key)) continue;
      if (key === "minimum" && inner === Number.MIN_SAFE_INTEGER) continue;
      if (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) continue;
      out[key] = stripNoise(inner);
    }
    return out;
  }
  return value;
}

/** Definition of a built-in tool with a zod input schema. */
export interface ToolDefinition<Schema extends z.ZodType> {
  name: string;
  description: string;
  input: Schema;
  alwaysOn?: boolean;
  keywords?: string[];
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
  return {
    name: definition.name,
    description: definition.description,
    parameters: compactJsonSchema(definition.input),
    source: "builtin",
    alwaysOn: definition.alwaysOn,
    keywords: definition.keywords,
    parse(args: unknown): ParseResult {
      const parsed = definition.input.safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, error: describeIssues(parsed.error) };
    },
    run: (args, context) => definition.run(args as z.output<Schema>, context),
  };
}
