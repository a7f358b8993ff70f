/**
 * The config check child: validates the config as `radar serve` would (the loader and its zod
 * schema load here, not in the daemon), creates the data folder and remembers the result in
 * `config_cache.json`, then exits 0; an invalid config prints its one line and exits with its
 * code (2). Started by `checkConfigInChild` as `deno run … config_check_process.ts [config]` or
 * as the compiled binary with the hidden `--radar-config-check` argument (main.ts).
 */
import { loadRememberedConfig, readRememberedConfig } from "../config/remembered_config.ts";
import { readTextFileIfExists } from "../config/config_file.ts";
import type { LoadOptions } from "../config/loader.ts";
import { ExitCode, firstLine, RadarError } from "../core/errors.ts";
import { ensureDataDirectory } from "../runtime/data_directory.ts";

/** Checks and remembers the config `args[0]` names (else the default one); the exit code. */
export async function runConfigCheckProcess(args: readonly string[]): Promise<number> {
  const options: LoadOptions = {
    explicitPath: args[0] || undefined,
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    readTextFile: readTextFileIfExists,
  };
  try {
    const loaded = await loadRememberedConfig(options);
    if (!readRememberedConfig(options)) {
      // Not remembered: the data folder did not exist yet (serve makes it right after this).
      ensureDataDirectory(loaded.dataDir);
      await loadRememberedConfig(options);
    }
    return ExitCode.ok;
  } catch (error) {
    console.error(`radar: ${firstLine(error)}`);
    return error instanceof RadarError ? error.exitCode : ExitCode.failure;
  }
}

if (import.meta.main) Deno.exit(await runConfigCheckProcess(Deno.args));
