/**
 * `radar serve`'s config when no remembered entry matches (a first start, an upgrade, a changed
 * config): validated in a child process, Radar itself in a hidden mode with the daemon's
 * permissions and no shell (config_check_process.ts), which remembers the result; the daemon then
 * reads the entry. The zod schema and its validation (~6 MB the daemon would hold for good) stay
 * in the child. Where nothing can be remembered (a secret given by the environment; a data folder
 * that cannot be written) or the child fails (an invalid config among others), the daemon
 * validates in-process as before, so the user sees the same line and exit code as without the
 * child.
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import type { LoadedConfig, LoadOptions } from "../config/loader.ts";
import {
  loadRememberedConfig,
  readRememberedConfig,
  secretFromEnvironment,
} from "../config/remembered_config.ts";
import { denoDirOf } from "../adapters/os/deno_child.ts";
import { daemonPermissionFlags } from "./daemon_command.ts";
import { configCheckFlag } from "./config_check_flag.ts";

/** The child's deadline: it starts Deno and validates once (well under a second normally). */
const timeoutMs = 60_000;

/** The validated config, the loader kept out of this process whenever the child could remember it. */
export async function checkedConfig(options: LoadOptions): Promise<LoadedConfig> {
  return await configFromChild(options) ?? await loadRememberedConfig(options);
}

/**
 * The config the child validated and remembered for `options`; undefined when it cannot be
 * remembered (a secret from the environment, an unwritable folder) or the child failed (an
 * invalid config among others): the caller validates in-process, for the error's own line.
 */
export async function configFromChild(options: LoadOptions): Promise<LoadedConfig | undefined> {
  if (secretFromEnvironment(options.env) || !await checkConfigInChild(options)) return undefined;
  return readRememberedConfig(options);
}

/** Runs the child; true when it exited 0 (the entry is then written, unless the folder refused). */
export async function checkConfigInChild(options: LoadOptions): Promise<boolean> {
  const { program, args } = configCheckCommand(
    Deno.build.standalone,
    Deno.execPath(),
    options.explicitPath,
  );
  try {
    const { success } = await new Deno.Command(program, {
      args,
      cwd: options.cwd,
      env: childEnvironment(options.env),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
    return success;
  } catch {
    return false; // not started or stopped at the deadline: validated in-process instead
  }
}

/** The child's command line (pure): the binary's hidden mode, or Deno with the mode's module. */
export function configCheckCommand(
  standalone: boolean,
  execPath: string,
  explicitPath: string | undefined,
): { program: string; args: string[] } {
  const config = explicitPath === undefined ? [] : [explicitPath];
  if (standalone) return { program: execPath, args: [configCheckFlag, ...config] };
  return {
    program: execPath,
    args: [
      "run",
      "--quiet",
      `--config=${fromFileUrl(new URL("../../deno.json", import.meta.url))}`,
      ...daemonPermissionFlags,
      fromFileUrl(new URL("./config_check_process.ts", import.meta.url)),
      ...config,
    ],
  };
}

/** The caller's environment (what validation reads), plus the Deno cache this process uses. */
function childEnvironment(env: LoadOptions["env"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  if (Deno.build.standalone) return out;
  try {
    const denoDir = denoDirOf(fromFileUrl(import.meta.resolve("zod")), "zod");
    if (denoDir) out.DENO_DIR = denoDir;
  } catch { /* not in a Deno cache folder: the caller's own DENO_DIR or HOME finds it */ }
  return out;
}
