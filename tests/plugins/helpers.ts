/** Helpers for plugin lifecycle tests: a temp data dir, SQLite records and a plugin system. */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedChatModel } from "../fakes/scripted_chat_model.ts";
import type { AgentDependencies } from "../../src/core/agent_types.ts";
import { buildSystemPrompt } from "../../src/core/system_prompt.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqlitePluginRecords } from "../../src/adapters/sqlite/plugin_records.ts";
import { SqliteAuditStore } from "../../src/adapters/sqlite/audit_store.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import type { Logger } from "../../src/core/ports.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { Hooks, hookToolGate, hookToolObserver } from "../../src/core/hooks.ts";
import { registerPluginHooks } from "../../src/plugins/plugin_hooks.ts";
import { createPluginSystem, type PluginSystem } from "../../src/plugins/plugin_system.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";

/** A logger that keeps lines. */
export function memoryLogger(lines: string[] = []): Logger {
  const log = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** A plugin system over a fresh data dir; `close()` stops hosts and removes everything. */
export function pluginFixture(
  configOverrides: Partial<ReturnType<typeof defaultConfig>["plugins"]> = {},
) {
  const dataDir = Deno.makeTempDirSync({ prefix: "radar-plugins-" });
  const db = openDatabase(join(dataDir, "radar.db"));
  const records = new SqlitePluginRecords(db);
  const registry = new ToolRegistry();
  const config = { ...defaultConfig().plugins, call_timeout_seconds: 5, ...configOverrides };
  const clock = new ManualClock(new Date("2026-05-01T10:00:00Z"));
  const toolCalls = new SqliteAuditStore(db, { retentionDays: 30, clock });
  const logLines: string[] = [];
  const system: PluginSystem = createPluginSystem({
    dataDir,
    records,
    config,
    env: { HOME: "/home/test" },
    clock,
    logger: memoryLogger(logLines),
    registry,
    audit: toolCalls,
  });
  system.start();
  return {
    db,
    clock,
    toolCalls,
    logLines,
    dataDir,
    records,
    registry,
    system,
    /** Writes a plugin folder to a scratch place and returns its path. */
    source(name: string, files: Record<string, string>): string {
      const path = join(dataDir, "sources", name);
      writeFolder(path, files);
      return path;
    },
    async close() {
      await system.stop();
      db.close();
      Deno.removeSync(dataDir, { recursive: true });
    },
  };
}

/** Files of a small sandbox plugin. */
export function echoPlugin(name = "echoer", body = "`echo ${args.text}`"): Record<string, string> {
  return {
    "manifest.yaml": `name: ${name}
version: 1.0.0
description: Echo text back
trust_level: sandbox
tools:
  - name: ${name}_echo
    description: Echo text
    parameters:
      text: { type: string }
`,
    "tool.ts": `export function ${name}_echo(args: { text: string }): string { return ${body}; }\n`,
    "tests.yaml": `- name: echoes\n  input_args: { text: hi }\n  expected_output: echo hi\n`,
  };
}

/** A plugin fixture. */
export type Fixture = ReturnType<typeof pluginFixture>;

/** Agent loop dependencies wired to the fixture's registry, hooks and SQLite audit trail. */
export function agentDeps(fixture: Fixture, model: ScriptedChatModel): AgentDependencies {
  const hooks = fixture.system.hooks;
  const registry = new Hooks();
  registerPluginHooks(registry, hooks);
  return {
    model,
    registry: fixture.registry,
    store: new SqliteConversationStore(fixture.db),
    clock: fixture.clock,
    audit: fixture.toolCalls,
    gates: [hookToolGate(registry)],
    observers: [hookToolObserver(registry)],
    promptVariables: hooks,
    elapsed: () => performance.now(),
    systemPrompt: (variables) =>
      buildSystemPrompt({
        name: "Radar",
        personality: "Brief.",
        personalityNotes: [],
        variables,
        now: fixture.clock.now(),
        timeZone: "UTC",
      }),
    settings: {
      maxToolIterations: 6,
      temperature: 0,
      toolBudgetTokens: 2000,
      historyMessages: 20,
      maxResultChars: 4000,
    },
  };
}

/** Installs and approves a plugin (fails the test when it is invalid). */
export async function installApproved(
  fixture: Fixture,
  name: string,
  files: Record<string, string>,
) {
  const review = fixture.system.manager.install(fixture.source(name, files));
  assert.deepEqual(review.errors, [], name);
  await fixture.system.api.approve(name);
}
