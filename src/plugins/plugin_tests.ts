/**
 * The tests.yaml runner: each case calls one plugin function through a real plugin host and
 * compares the result (exact text, or JSON-equal value) or the expected error (substring).
 */
import { z } from "zod";
import { parse as parseYaml } from "yaml";
import type { PluginGrant } from "../sandbox/permissions.ts";
import {
  type PluginCode,
  PluginProcess,
  type PluginProcessOptions,
} from "../sandbox/plugin_process.ts";
import type { PluginTestOutcome } from "../core/plugin_state.ts";
import { describeIssue } from "../core/zod_issues.ts";
import { firstLine } from "../core/errors.ts";

const testCase = z.object({
  name: z.string().min(1).max(200),
  /** Which tool to call; defaults to the plugin's first tool. */
  tool: z.string().optional(),
  input_args: z.record(z.string(), z.unknown()).default({}),
  expected_output: z.unknown().optional(),
  expected_error: z.string().optional(),
}).refine(
  (value) => value.expected_output !== undefined || value.expected_error !== undefined,
  "each test needs expected_output or expected_error",
);

/** One parsed test case. */
export type PluginTestCase = z.output<typeof testCase>;

/** Parses tests.yaml; throws an Error with a readable message. */
export function parseTests(text: string): PluginTestCase[] {
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 10 }) ?? [];
  } catch (error) {
    throw new Error(`tests.yaml is not valid YAML: ${firstLine(error)}`);
  }
  const parsed = z.array(testCase).max(50).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`tests.yaml: ${describeIssue(issue, { root: "(file)" })}`);
  }
  return parsed.data;
}

function matches(actual: string, expected: unknown): boolean {
  if (typeof expected === "string") return actual === expected;
  try {
    return JSON.stringify(JSON.parse(actual)) === JSON.stringify(expected);
  } catch {
    return actual === String(expected);
  }
}

/** Limits for a test run. */
export type TestRunLimits = Pick<
  PluginProcessOptions,
  "callTimeoutMs" | "memoryMb" | "maxResultChars" | "env"
>;

/** Runs every case in one plugin host with `grant`; the host is stopped afterwards. */
export async function runPluginTests(
  code: PluginCode,
  cases: PluginTestCase[],
  grant: PluginGrant,
  limits: TestRunLimits,
): Promise<PluginTestOutcome[]> {
  const process = new PluginProcess({ code, grant, idleMs: 60_000, ...limits });
  const outcomes: PluginTestOutcome[] = [];
  try {
    for (const test of cases) {
      const tool = test.tool ?? code.functions[0];
      if (!code.functions.includes(tool ?? "")) {
        outcomes.push({ name: test.name, passed: false, detail: `no tool named ${test.tool}` });
        continue;
      }
      const result = await process.call(tool, test.input_args);
      const got = `got ${result.outcome}: ${result.text.slice(0, 300)}`;
      const passed = test.expected_error !== undefined
        ? result.outcome !== "ok" && result.text.includes(test.expected_error)
        : result.outcome === "ok" && matches(result.text, test.expected_output);
      const detail = test.expected_error !== undefined
        ? (passed
          ? "failed as expected"
          : `expected an error containing "${test.expected_error}", ${got}`)
        : (passed ? "passed" : `expected ${JSON.stringify(test.expected_output)}, ${got}`);
      outcomes.push({ name: test.name, passed, detail });
    }
  } finally {
    await process.stop();
  }
  return outcomes;
}
