/**
 * The plugin folders in the data directory:
 * `<data>/plugins/{pending_review,available,enabled,failed,versions}`. A folder dropped directly
 * into `<data>/plugins/` is an inbox entry that the next sync validates and files for review.
 * `enabled/NAME` is a symbolic link to `../available/NAME`.
 */
import { join } from "node:path";
import { osErrorCode } from "../core/errors.ts";

/** The lifecycle folders under `<data>/plugins`. */
export interface PluginDirectories {
  root: string;
  pending: string;
  available: string;
  enabled: string;
  failed: string;
  versions: string;
}

/** Folder names under `<data>/plugins` that are not inbox entries. */
export const reservedNames = ["pending_review", "available", "enabled", "failed", "versions"];

/** The layout for a data directory (pure). */
export function pluginDirectories(dataDir: string): PluginDirectories {
  const root = join(dataDir, "plugins");
  return {
    root,
    pending: join(root, "pending_review"),
    available: join(root, "available"),
    enabled: join(root, "enabled"),
    failed: join(root, "failed"),
    versions: join(root, "versions"),
  };
}

/**
 * Creates every lifecycle folder (mode 0700). On a read-only data folder the missing ones are
 * left missing: reading finds no plugins there, and installing fails with its own line.
 */
export function ensurePluginDirectories(dirs: PluginDirectories): void {
  for (const path of Object.values(dirs)) {
    try {
      Deno.mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (error) {
      if (osErrorCode(error) !== "EROFS") throw error;
    }
  }
}

/** Removes a file, link or folder if present. */
export function removePath(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Writes a file set into a fresh folder (replacing what was there). */
export function writeFolder(path: string, files: Record<string, string>): void {
  removePath(path);
  Deno.mkdirSync(path, { recursive: true, mode: 0o700 });
  for (const [relative, text] of Object.entries(files)) {
    const target = join(path, relative);
    Deno.mkdirSync(join(target, ".."), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(target, text, { mode: 0o600 });
  }
}

/** Moves a folder, replacing the target. */
export function moveFolder(from: string, to: string): void {
  removePath(to);
  Deno.mkdirSync(join(to, ".."), { recursive: true, mode: 0o700 });
  Deno.renameSync(from, to);
}

/** Sub-folder names of a folder (empty when it does not exist). */
export function folderNames(path: string): string[] {
  try {
    return [...Deno.readDirSync(path)].filter((entry) => entry.isDirectory || entry.isSymlink)
      .map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}
