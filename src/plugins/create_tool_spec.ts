/**
 * What `create_tool` is, as the model is offered it: its name, effect, description, keywords and
 * input. The tool (src/plugins/create_tool.ts) runs it; a run that has not loaded the plugin
 * system offers it from here (src/runtime/plugins_for_run.ts), the same schema.
 */
import { z } from "zod";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";

/** `create_tool`'s arguments, built on first use (offered as in src/core/tool_parameters.ts). */
export const createToolInput = lazyValue(() =>
  z.object({
    name: z.string().describe("snake_case tool name, also the plugin name"),
    description: z.string().describe("one line: what the tool does"),
    parameters: z.record(
      z.string(),
      z.object({
        type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
        description: z.string().optional(),
        optional: z.boolean().optional(),
      }),
    ).describe("argument name → {type, description, optional}"),
    code: z.string().max(20_000).describe(
      "TypeScript: export function NAME(args) returning a string; no imports, no Deno APIs",
    ),
    tests: z.array(z.object({
      name: z.string(),
      input_args: z.record(z.string(), z.unknown()),
      expected_output: z.unknown().optional(),
      expected_error: z.string().optional(),
    })).min(1).max(20).describe("examples that must pass"),
  })
);

/** `create_tool`'s definition but its `run`. */
export const createToolSpec = {
  name: "create_tool",
  effect: "local_write" as const,
  resultIsData: false,
  description: "Write a new sandboxed tool (code + tests) for the user to review",
  keywords: ["plugin", "new tool", "create", "build"],
  parameters: toolParameters.create_tool,
  input: createToolInput,
};
