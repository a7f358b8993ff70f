/** `radar doctor`'s first lines: the config file, the data folder and the database. */
import { join } from "node:path";
import type { LoadedConfig } from "../config/loader.ts";
import { firstLine, RadarError } from "../core/errors.ts";
import type { Radar } from "../runtime/open_radar.ts";
import { blocking, type Verdict, verdict } from "./verdict.ts";

/** The config: which file, every unknown key with the key meant; invalid blocks. */
export async function configVerdicts(
  load: () => Promise<LoadedConfig>,
): Promise<{ loaded?: LoadedConfig; verdicts: Verdict[] }> {
  let loaded: LoadedConfig;
  try {
    loaded = await load();
  } catch (error) {
    if (!(error instanceof RadarError)) throw error;
    const line = firstLine(error, 300);
    return { verdicts: [blocking("config", line, configFix(line))] };
  }
  const verdicts = [
    verdict("config", "ok", loaded.path ?? "no file: embedded defaults (`radar config path`)"),
  ];
  for (const key of loaded.unknownKeys ?? []) {
    verdicts.push(verdict("config", "warn", `unknown key ${key.path}: Radar ignores it`, {
      fix: key.suggestion
        ? `did you mean ${key.suggestion}? rename it`
        : "remove it, or check the spelling in `radar config show`",
    }));
  }
  for (const line of loaded.warnings.filter((line) => !/^Unknown config keys/.test(line))) {
    verdicts.push(verdict("config", "warn", line));
  }
  return { loaded, verdicts };
}

/** The fix of an invalid config: the channel cross-checks' own, else the line to fix. */
function configFix(line: string): string {
  const notices = /notifications\.channels\[\d+\]: (\w+) is not configured/.exec(line);
  if (notices) {
    return `add a channels.${notices[1]} section (docs/channels.md), or take ${
      notices[1]
    } out of notifications.channels`;
  }
  if (/channels\.email\.account: no email\.accounts entry is named/.test(line)) {
    return "name the email.accounts entry Radar reads in channels.email.account, or add it";
  }
  return "fix that line in the file (`radar config validate` checks it again)";
}

/** The data folder: there (or made) and writable. */
export function dataFolderVerdict(dataDir: string): Verdict {
  try {
    Deno.mkdirSync(dataDir, { recursive: true });
    const probe = Deno.makeTempFileSync({ dir: dataDir, prefix: ".doctor-" });
    Deno.removeSync(probe);
    return verdict("data", "ok", `${dataDir} (writable)`);
  } catch (error) {
    return blocking(
      "data",
      `${dataDir} cannot be written: ${firstLine(error, 200)}`,
      "make the folder yours (`chown`), or point radar.data_dir (RADAR_DATA_DIR) elsewhere",
    );
  }
}

/** The database as the opened Radar sees it: damage, read-only, quick_check. */
export function databaseVerdict(radar: Pick<Radar, "database" | "databasePath">): Verdict {
  const damage = radar.database.problem();
  if (damage) {
    return blocking(
      "database",
      damage,
      "`radar db check`, then `radar db recover` or `radar restore`",
    );
  }
  const readOnly = radar.database.readOnly();
  if (readOnly) {
    return blocking("database", `${radar.databasePath}: ${readOnly}`, "make the file writable");
  }
  const check = radar.database.check();
  if (!check.ok) {
    return blocking(
      "database",
      `${radar.databasePath}: ${check.problem ?? "integrity check failed"}`,
      "`radar db check`, then `radar db recover` or `radar restore`",
    );
  }
  let size = 0;
  try {
    size = Deno.statSync(radar.databasePath).size;
  } catch { /* not written yet */ }
  return verdict(
    "database",
    "ok",
    `${radar.databasePath} (${(size / 1024 / 1024).toFixed(1)} MiB, integrity ok)`,
  );
}

/** Radar itself could not open: what was said, as the one blocking database line. */
export function openFailure(error: unknown, dataDir: string): Verdict {
  return blocking(
    "database",
    `Radar cannot open ${join(dataDir, "radar.db")}: ${firstLine(error, 300)}`,
    "`radar db check`; a damaged file: `radar db recover` or `radar restore`",
  );
}
