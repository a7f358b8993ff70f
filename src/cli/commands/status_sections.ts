/** The sections of `radar status` after the basics: daemon, exec, plugins. */
import type { Radar } from "../../runtime/open_radar.ts";
import { execStatusLines } from "./exec_status.ts";
import { daemonStatus } from "./daemon_status.ts";
import { pluginStatusLines } from "./plugin_status.ts";
import { execSandbox } from "../../tools/exec/sandbox_spec.ts";

/** A section of `radar status` contributed by a concern (daemon, tools, plugins). */
export type StatusSection = (runtime: Radar) => Promise<string[]> | string[];

/** Extra status sections, in order; concerns append theirs. */
export const statusSections: StatusSection[] = [
  daemonStatus,
  (runtime) => {
    const problem = runtime.personalities.problem();
    return [`personality: ${runtime.personalities.activeName()}${problem ? ` — ${problem}` : ""}`];
  },
  (runtime) => execStatusLines(runtime, Deno.env.toObject()),
  (runtime) => pluginStatusLines(runtime),
  (runtime) => runtime.database.sources(),
  (runtime) => runtime.mcp.statusLines(),
  (runtime) =>
    runtime.database.checks(execSandbox({ ...runtime, env: Deno.env.toObject() }).problem),
  (runtime) => runtime.database.github(Deno.env.toObject()),
];
