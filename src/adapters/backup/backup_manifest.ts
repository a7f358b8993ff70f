/**
 * What a Radar backup archive holds (`radar-backup/…` in a gzipped tar) and its manifest, the
 * last entry: every file with its size and SHA-256, the schema version, and which secrets were
 * left out. Restore trusts nothing in an archive that this file does not allow.
 */
import { z } from "zod";

/** The folder every entry of the archive lives in (`tar xzf` makes just that one folder). */
export const archiveRoot = "radar-backup";

/** The manifest's name inside the archive folder. */
export const manifestName = "manifest.json";

/** The database's name inside the archive folder (SQLite's online backup of radar.db). */
export const databaseName = "radar.db";

/** The config's name inside the archive folder (its secrets blanked). */
export const configName = "radar.yaml";

/** The data folder's parts a backup holds (under `data/` in the archive). */
export const dataFolders = ["plugins", "skills", "personalities"] as const;

/** One file of the archive. */
const archivedFile = z.object({
  path: z.string().min(1).max(1024),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The manifest, checked strictly on restore. */
export const backupManifest = z.object({
  format: z.literal("radar-backup"),
  formatVersion: z.literal(1),
  radarVersion: z.string().max(50),
  createdAt: z.string().max(40),
  /** PRAGMA user_version of the archived database. */
  schemaVersion: z.number().int().min(0),
  /** Where the config came from (absent: Radar ran on its defaults). */
  configPath: z.string().max(4096).optional(),
  files: z.array(archivedFile).max(100_000),
  /** Plugins enabled when the backup was made (`plugins/enabled/NAME` links, recreated). */
  enabledPlugins: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/)).max(10_000),
  /** Config keys whose values were secrets: blanked in the archived config. */
  secretsLeftOut: z.array(z.string().max(200)).max(1000),
  /** Config keys that point at secrets kept elsewhere (commands, variables, the keychain). */
  secretsReferenced: z.array(z.string().max(200)).max(1000),
});

/** A parsed manifest. */
export type BackupManifest = z.infer<typeof backupManifest>;

/**
 * True when `path` (inside the archive folder) is one a backup may hold: the manifest, the
 * database, the config, or a file under `data/<plugins|skills|personalities>/`. Components are
 * plain names: no empty part, no `.` or `..`, no backslash, NUL or control character.
 */
export function allowedArchivePath(path: string): boolean {
  // deno-lint-ignore no-control-regex
  if (path.length > 1024 || /[\\\u0000-\u001f\u007f]/.test(path)) return false;
  const parts = path.split("/");
  if (parts.some((part) => !part || part === "." || part === ".." || part.length > 255)) {
    return false;
  }
  if (parts.length === 1) return [manifestName, databaseName, configName].includes(parts[0]);
  return parts[0] === "data" && (dataFolders as readonly string[]).includes(parts[1]);
}
