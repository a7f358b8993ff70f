/**
 * The `create_tool` meta-tool: the model writes a sandbox-trust plugin (name, description,
 * parameters, code, tests). Radar validates it, runs its tests in the sandbox with no permissions,
 * and files it for review (or enables it when `plugins.auto_approve_if_tests_pass` is on and the
 * user says yes to its description, which later requests show the model). Failed
 * attempts are kept in failed/ with their errors; `plugins.max_debug_attempts` bounds retries.
 * The model can never create a local-trust plugin or ask for permissions.
 */
import type { z } from "zod";
import { stringify as toYaml } from "yaml";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { Clock } from "../core/ports.ts";
import { emptyGrant } from "../sandbox/permissions.ts";
import { pluginCode, validatePluginFiles } from "./plugin_files.ts";
import type { PluginManager } from "./plugin_manager.ts";
import type { PluginRecords } from "./plugin_records.ts";
import { parseTests, runPluginTests } from "./plugin_tests.ts";
import { join } from "node:path";
import { writeFolder } from "./plugin_directories.ts";
import { type createToolInput, createToolSpec } from "./create_tool_spec.ts";

/** What create_tool needs. */
export interface CreateToolDependencies {
  manager: PluginManager;
  records: PluginRecords;
  config: RadarConfig["plugins"];
  clock: Clock;
  /** Called after a plugin was enabled automatically, to register its tools. */
  onEnabled(): Promise<void>;
}

/** Builds the files of an LLM-written plugin (pure). */
function generatedPluginFiles(
  args: z.output<ReturnType<typeof createToolInput>>,
): Record<string, string> {
  const manifest = {
    name: args.name,
    version: "1.0.0",
    description: args.description,
    author: "llm-generated",
    trust_level: "sandbox",
    capabilities: ["tool"],
    tools: [{ name: args.name, description: args.description, parameters: args.parameters }],
  };
  return {
    "manifest.yaml": toYaml(manifest),
    "tool.ts": args.code,
    "tests.yaml": toYaml(args.tests.map((test) => ({ ...test, tool: args.name }))),
  };
}

/** The create_tool meta-tool. */
export function createToolTool(deps: CreateToolDependencies): Tool {
  return defineTool({
    ...createToolSpec,
    async run(args, context) {
      const { manager, records, config } = deps;
      const previous = records.getReview(args.name);
      const attempts = (previous?.source === "llm" ? previous.attempts : 0) + 1;
      if (attempts > config.max_debug_attempts) {
        return refused(
          `create_tool: ${args.name} failed ${config.max_debug_attempts} times; stop and tell the user.`,
        );
      }
      const files = generatedPluginFiles(args);
      const checked = validatePluginFiles(args.name, "(generated)", files);
      const now = () => deps.clock.now().toISOString();
      const fail = (
        errors: string[],
        tests: { name: string; passed: boolean; detail: string }[],
      ) => {
        writeFolder(join(manager.dirs.failed, args.name), {
          ...files,
          "errors.txt": errors.join("\n"),
        });
        records.saveReview({
          name: args.name,
          source: "llm",
          filesHash: "",
          errors,
          tests,
          attempts,
          updatedAt: now(),
        });
        return failed(
          `create_tool: attempt ${attempts} of ${config.max_debug_attempts} failed:\n- ${
            errors.join("\n- ")
          }\nFix the code and call create_tool again.`,
        );
      };
      if (!checked.ok) return fail(checked.errors, []);
      let cases;
      try {
        cases = parseTests(files["tests.yaml"]);
      } catch (error) {
        return fail([(error as Error).message], []);
      }
      const outcomes = await runPluginTests(
        pluginCode(checked.folder),
        cases,
        emptyGrant,
        manager.inventory.limits(),
      );
      const failures = outcomes.filter((outcome) => !outcome.passed);
      if (failures.length) {
        return fail(failures.map((outcome) => `${outcome.name}: ${outcome.detail}`), outcomes);
      }
      const stagingRoot = Deno.makeTempDirSync({ prefix: "radar-create-tool-" });
      try {
        writeFolder(join(stagingRoot, args.name), files);
        manager.install(join(stagingRoot, args.name), "llm");
      } finally {
        Deno.removeSync(stagingRoot, { recursive: true });
      }
      records.saveReview({
        name: args.name,
        source: "llm",
        filesHash: checked.folder.hash,
        errors: [],
        tests: outcomes,
        attempts: 0,
        updatedAt: now(),
      });
      // Its description goes into later requests: model-written text that persists needs the
      // user's yes, so auto-approval asks (and without a person to ask, the tool waits for review).
      if (
        config.auto_approve_if_tests_pass && context.confirm &&
        await context.confirm(
          `Enable the tool "${args.name}" the model just wrote (tests passed)? Later requests ` +
            `will show the model its description: ${JSON.stringify(args.description)}`,
        )
      ) {
        manager.approve(args.name, "tests_passed");
        await deps.onEnabled();
        return `Created ${args.name}: ${outcomes.length} tests passed; it is enabled (sandbox, no permissions).`;
      }
      return `Created ${args.name}: ${outcomes.length} tests passed; it waits for the user's review ` +
        `(radar plugin show ${args.name}).`;
    },
  });
}
