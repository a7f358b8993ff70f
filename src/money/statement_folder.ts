/**
 * The watched statements folder: regular files with a statement's extension, at its top level or
 * one sub-folder down (the sub-folder's name is the account), that have settled (not modified
 * for a few seconds: a download still being written is left for the next scan). Links, hidden
 * files and partial downloads are skipped; a scan looks at a bounded number of files.
 */
import { join } from "node:path";

/** A statement file found in the folder. */
export interface FolderFile {
  path: string;
  name: string;
  size: number;
  modifiedMs: number;
  /** The sub-folder it is in (an account name), if any. */
  folderAccount?: string;
}

/** Extensions of statement files. */
const statementExtension = /\.(csv|txt|tsv|ofx|qfx|xml|camt|053)$/i;
/** Names of files still being written, or not statements. */
const skippedName = /^\.|\.(part|crdownload|download|tmp)$|~$/i;
/** Files looked at per scan, at most. */
const maxFilesPerScan = 200;

/** Lists the statement files in `folder` (throws when the folder cannot be read). */
export async function listStatementFiles(folder: string): Promise<FolderFile[]> {
  const found: FolderFile[] = [];
  const visit = async (dir: string, account?: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (found.length >= maxFilesPerScan) return;
      if (entry.isSymlink || skippedName.test(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (account === undefined) await visit(path, entry.name).catch(() => {});
        continue;
      }
      if (!entry.isFile || !statementExtension.test(entry.name)) continue;
      const info = await Deno.lstat(path).catch(() => undefined);
      if (!info?.isFile) continue;
      found.push({
        path,
        name: entry.name,
        size: info.size,
        modifiedMs: info.mtime?.getTime() ?? 0,
        ...(account === undefined ? {} : { folderAccount: account }),
      });
    }
  };
  await visit(folder);
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** True when a file was not modified in the last `settleMs` (by the file system's clock). */
export function hasSettled(file: FolderFile, nowMs: number, settleMs: number): boolean {
  return nowMs - file.modifiedMs >= settleMs;
}
