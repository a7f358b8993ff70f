/**
 * The config check child: validates the config as `radar serve` would (the loader and its zod
 * schema load here, not in the daemon), creates the data folder and remembers the result in
 * `config_cache.json`, then creates or migrates the database (so a first-starting daemon loads no
 * migration) and exits 0; an invalid config prints its one line and exits with its code (2).
 * Started by `checkConfigInChild` as `deno run … config_check_process.ts [config]` or as the
 * compiled binary with the hidden `--radar-config-check` argument (main.ts).
 */
import { loadRememberedConfig } from "../config/remembered_config.ts";
import { readTextFileIfExists } from "../config/config_file.ts";
import type { LoadOptions } from "../config/loader.ts";
import { ExitCode, firstLine, RadarError } from "../core/errors.ts";
import { ensureDataDirectory } from "../runtime/data_directory.ts";
import {
  newestSchemaVersion,
  openCurrentDatabase,
  storedSchemaVersion,
} from "../adapters/sqlite/database_file.ts";
import { knownDamage } from "../adapters/sqlite/damage_marker.ts";
import { join } from "node:path";

/** Checks and remembers the config `args[0]` names (else the default one); the exit code. */
export async function runConfigCheckProcess(args: readonly string[]): Promise<number> {
  const options: LoadOptions = {
    explicitPath: args[0] || undefined,
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    readTextFile: readTextFileIfExists,
  };
  try {
    // Validated: the data folder is made before remembering (serve makes it right after this).
    const loaded = await loadRememberedConfig(
      options,
      (validated) => ensureDataDirectory(validated.dataDir),
    );
    await prepareDatabase(join(loaded.dataDir, "radar.db"));
    return ExitCode.ok;
  } catch (error) {
    console.error(`radar: ${firstLine(error)}`);
    return error instanceof RadarError ? error.exitCode : ExitCode.failure;
  }
}

/**
 * Creates or migrates the database at `path` as the daemon's open would, and closes it before this
 * process exits (the daemon waits for that), so the daemon opens a current file and loads no
 * migration. A current file (a hand edit while the daemon runs) and a file known to be damaged are
 * left alone; any problem is left for the daemon's own open to report, with its usual line.
 */
async function prepareDatabase(path: string): Promise<void> {
  if (storedSchemaVersion(path) === newestSchemaVersion || knownDamage(path)) return;
  try {
    (await openCurrentDatabase(path)).close();
  } catch {
    // The daemon opens (and migrates) in-process as before and reports this itself.
  }
}

if (import.meta.main) Deno.exit(await runConfigCheckProcess(Deno.args));
