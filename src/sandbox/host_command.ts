/**
 * How the parent starts a plugin host process: under `deno run`, Deno again with the host module
 * as entry and exactly the grant's `--allow-*` flags (plus read of the bootstrap file, which the
 * worker entry needs and the host revokes before plugin code loads); in the compiled binary, the
 * binary itself in its hidden plugin-host mode (it then revokes every permission kind the grant
 * does not use). Under `deno run`, a grant with network access also gets `--deny-net` for private
 * addresses it does not name, checked after DNS (network_policy.ts). Either way: no prompts, no npm:/remote modules, a V8 heap limit, and on Linux an
 * OS data-segment limit through `prlimit`.
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { type PluginGrant, processFlags } from "./permissions.ts";
import { pluginHostFlag } from "./host_flag.ts";
import { withDataLimit } from "../adapters/os/process_limits.ts";
import { denoChildEnvironment } from "../adapters/os/deno_child.ts";

/** A program and its arguments. */
export interface HostCommand {
  command: string;
  args: string[];
}

/** What decides the host command line. */
export interface HostCommandOptions {
  grant: PluginGrant;
  memoryMb: number;
  /** `Deno.build.standalone`: true inside the compiled binary. */
  standalone: boolean;
  execPath: string;
  /** Path of `prlimit` when the OS has it (Linux), else undefined. */
  prlimitPath?: string;
  /**
   * `--deny-net` entries (private addresses the grant does not name; see network_policy.ts).
   * Used only under `deno run` when the grant has network access: a compiled binary cannot take
   * flags at run time.
   */
  denyNet?: string[];
  /** The plugin's name, passed as `--radar-plugin=NAME` so `ps` and `radar status` can tell hosts apart. */
  pluginName?: string;
  /** Which Radar started it (`ownerTag` of its data folder), passed as `--radar-owner=TAG`. */
  owner?: string;
}

/** The argument that names the plugin a host process runs (ignored by the host itself). */
export const pluginNameArgument = "--radar-plugin=";

/** The argument that names the Radar (its data folder's tag) a host process belongs to. */
export const ownerArgument = "--radar-owner=";

/**
 * Measured on Deno 2.9.6 / Linux: a process with one worker needs about 1.2 GB of data segment
 * (RLIMIT_DATA) just to start; RLIMIT_AS is useless (V8's caged heap reserves > 32 GB).
 */
const baseDataLimitMb = 1200;

/** The V8 flags every plugin host runs with. */
function v8Flags(memoryMb: number): string {
  return `--max-old-space-size=${memoryMb}`;
}

/** Builds the command line for one plugin host process (pure). */
export function hostCommand(options: HostCommandOptions): HostCommand {
  const command = options.execPath;
  let args: string[];
  const name = [
    ...(options.pluginName ? [`${pluginNameArgument}${options.pluginName}`] : []),
    ...(options.owner ? [`${ownerArgument}${options.owner}`] : []),
  ];
  if (options.standalone) {
    args = [pluginHostFlag, ...name];
  } else {
    const bootstrap = fromFileUrl(new URL("./bootstrap.ts", import.meta.url));
    const host = fromFileUrl(new URL("./host_process.ts", import.meta.url));
    const grant = { ...options.grant, read: [bootstrap, ...options.grant.read] };
    args = [
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--no-npm",
      "--no-remote",
      "--cached-only",
      "--no-prompt",
      "--unstable-worker-options",
      `--v8-flags=${v8Flags(options.memoryMb)}`,
      ...processFlags(grant),
      ...(grant.net.length && options.denyNet?.length
        ? [`--deny-net=${options.denyNet.join(",")}`]
        : []),
      host,
      ...name,
    ];
  }
  return withDataLimit({ command, args }, options.prlimitPath, baseDataLimitMb + options.memoryMb);
}

/** The environment of a plugin host: nothing but what Deno needs and the approved variables. */
export function hostEnvironment(
  grant: PluginGrant,
  parentEnv: Record<string, string | undefined>,
  memoryMb: number,
): Record<string, string> {
  const cache = ["HOME", "DENO_DIR", "XDG_CACHE_HOME"];
  const env = denoChildEnvironment(parentEnv, undefined, memoryMb, cache);
  for (const name of grant.env) {
    const value = parentEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
