/** Builds real tool dependencies over a temporary home folder for tool tests. */
import { join } from "node:path";
import { defaultConfig, type RadarConfig } from "../../src/config/schema.ts";
import type { FactStore } from "../../src/core/ports.ts";
import { silentLogger } from "../../src/core/ports.ts";
import type { Tool, ToolContext, ToolResult } from "../../src/core/tool.ts";
import { Secrets } from "../../src/core/secrets.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { configSecretValues } from "../../src/config/secrets.ts";
import type { ToolDependencies } from "../../src/tools/dependencies.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { NtfyNotifier } from "../../src/adapters/ntfy_notifier.ts";
import { createPdfReader } from "../../src/adapters/pdf/subprocess_pdf_reader.ts";

/** A temporary home with a data directory, removed by `dispose`. */
export interface TempHome {
  home: string;
  dataDir: string;
  dispose(): void;
}

/** tests/output/, or RADAR_TEST_OUTPUT (a test run as the test user: tests/ is root's). */
const outputFolder = Deno.env.get("RADAR_TEST_OUTPUT") ||
  new URL("../output/", import.meta.url).pathname;

/**
 * Creates a temporary home folder under tests/output/ (not /tmp: inside the exec sandbox /tmp
 * is private, and paths under /tmp count as temporary for rm). Real path, so symlinks in the
 * way do not confuse checks.
 */
export function tempHome(): TempHome {
  Deno.mkdirSync(outputFolder, { recursive: true });
  const home = Deno.realPathSync(
    Deno.makeTempDirSync({ dir: outputFolder, prefix: "radar-home-" }),
  );
  const dataDir = join(home, ".local/share/radar");
  Deno.mkdirSync(dataDir, { recursive: true });
  return { home, dataDir, dispose: () => Deno.removeSync(home, { recursive: true }) };
}

/**
 * The secrets of every config this harness built (as one runtime would know them): what `call`
 * masks results with, like the runtime's registry.
 */
const knownSecrets = new Secrets();

/** Dependencies for tools, with config edited by `edit`. */
export function toolDeps(
  home: TempHome,
  edit: (config: RadarConfig) => void = () => {},
  extra: Partial<ToolDependencies> = {},
): ToolDependencies {
  const config = defaultConfig();
  edit(config);
  for (const value of configSecretValues(config)) knownSecrets.learn(value);
  const fetch = extra.fetch ?? globalThis.fetch;
  return {
    config,
    dataDir: home.dataDir,
    facts: {} as FactStore,
    clock: new ManualClock(new Date("2026-11-22T09:15:00Z")),
    logger: silentLogger,
    fetch,
    notifier: new NtfyNotifier({ config, fetch }),
    env: { HOME: home.home },
    cwd: home.home,
    pdfReader: createPdfReader(config.tools.pdf, Deno.env.toObject()),
    secrets: knownSecrets,
    ...extra,
  };
}

/** Config edit: write_file may write the whole (temporary) home without asking. */
export function writableHome(config: RadarConfig): void {
  config.tools.files.writable_roots = ["~"];
}

/** A non-interactive tool context (as in `radar ask`). */
export function askContext(signal = new AbortController().signal): ToolContext {
  return { kind: "ask", interactive: false, signal };
}

/**
 * Runs the tool through a registry as the agent loop does (arguments validated, the result
 * masked with the known secrets, never cut); arguments the tool refuses fail the test.
 */
export async function call(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext = askContext(),
): Promise<ToolResult> {
  const parsed = tool.parse(args);
  if (!parsed.ok) throw new Error(`bad test arguments: ${parsed.error}`);
  const registry = new ToolRegistry({ secrets: knownSecrets });
  registry.register(tool);
  const execution = await registry.execute(
    { id: "test", name: tool.name, arguments: JSON.stringify(args) },
    {
      offered: new Set([tool.name]),
      context,
      maxResultChars: Number.MAX_SAFE_INTEGER,
      elapsed: () => 0,
    },
  );
  return execution.result;
}
