/** Builds real tool dependencies over a temporary home folder for tool tests. */
import { join } from "node:path";
import { defaultConfig, type RadarConfig } from "../../src/config/schema.ts";
import type { FactStore } from "../../src/core/ports.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { type Tool, type ToolContext, type ToolResult, toResult } from "../../src/core/tool.ts";
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

const outputFolder = new URL("../output/", import.meta.url).pathname;

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

/** Dependencies for tools, with config edited by `edit`. */
export function toolDeps(
  home: TempHome,
  edit: (config: RadarConfig) => void = () => {},
  extra: Partial<ToolDependencies> = {},
): ToolDependencies {
  const config = defaultConfig();
  edit(config);
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

/** Validates arguments like the registry does and runs the tool. */
export async function call(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext = askContext(),
): Promise<ToolResult> {
  const parsed = tool.parse(args);
  if (!parsed.ok) throw new Error(`bad test arguments: ${parsed.error}`);
  return toResult(await tool.run(parsed.value, context));
}
