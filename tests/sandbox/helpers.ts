/** Shared helpers for the sandbox tests: fixture plugins and plugin host processes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromFileUrl } from "../project/file_url.ts";
import { pluginCode, readPluginFolder } from "../../src/plugins/plugin_files.ts";
import { emptyGrant, type PluginGrant } from "../../src/sandbox/permissions.ts";
import { type PluginCode, PluginProcess } from "../../src/sandbox/plugin_process.ts";

/** Absolute path of tests/fixtures/plugins/NAME. */
export function fixturePath(name: string): string {
  return join(fromFileUrl(new URL("../fixtures/plugins/", import.meta.url)), name);
}

/** Absolute path of the repository's plugins/NAME. */
export function examplePath(name: string): string {
  return join(fromFileUrl(new URL("../../plugins/", import.meta.url)), name);
}

/** Reads a plugin folder and returns its code (fails the test if it is invalid). */
export function loadCode(path: string): PluginCode {
  const result = readPluginFolder(path);
  assert.ok(result.ok, result.ok ? "" : result.errors.join("; "));
  return pluginCode(result.folder);
}

/** A plugin host process with test-sized limits. */
export function startProcess(
  code: PluginCode,
  grant: PluginGrant = emptyGrant,
  overrides: { callTimeoutMs?: number; memoryMb?: number; maxResultChars?: number } = {},
): PluginProcess {
  return new PluginProcess({
    code,
    grant,
    callTimeoutMs: overrides.callTimeoutMs ?? 5000,
    memoryMb: overrides.memoryMb ?? 64,
    idleMs: 60_000,
    maxResultChars: overrides.maxResultChars ?? 16_000,
    env: Deno.env.toObject(),
  });
}

/** Code from a single tool.ts text. */
export function inlineCode(name: string, source: string, functions: string[]): PluginCode {
  return { name, files: { "tool.ts": source }, entry: "tool.ts", functions };
}
