/**
 * Is a file or a folder at a path, and where a path really leads: answers, never throws. In the
 * config layer (not `adapters/os/quiet_fs.ts`) so that skills and personalities, which may import
 * only core and config, use the same ones as every other layer.
 */

/** True when `path` is (or links to) a regular file. */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** True when `path` is (or links to) a folder. */
export function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The real path (links and `..` resolved), or undefined when nothing is there. */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** The entries of a folder; none when it is missing or cannot be read. */
export function folderEntries(path: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(path)];
  } catch {
    return [];
  }
}
