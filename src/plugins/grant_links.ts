/**
 * Symbolic links that lead out of a grant. Deno follows links inside an allowed folder (measured:
 * a `--deny-read` on the target does not stop it), and a plugin cannot create links itself
 * (`Deno.symlink` needs unscoped read and write), so the risk is links the user already has, e.g.
 * `~/Documents/keys → ~/.ssh`. Reviewers are warned about them; the walk is bounded.
 */
import { join } from "node:path";
import type { PluginGrant } from "../sandbox/permissions.ts";
import { isPathInside } from "../core/protected_paths.ts";
import { folderEntries, isFolder, realPathOrUndefined } from "../config/quiet_stat.ts";

/** Bounds of the walk over granted folders. */
export const linkScanLimits = { maxEntries: 5000, maxDepth: 6 };

/** A link inside a granted folder whose target is outside every granted path. */
export interface EscapingLink {
  link: string;
  target: string;
}

/** Finds links leaving the grant's read and write paths; `complete` is false when cut short. */
export function escapingLinks(grant: PluginGrant): { links: EscapingLink[]; complete: boolean } {
  const roots = [...new Set([...grant.read, ...grant.write])];
  const links: EscapingLink[] = [];
  let seen = 0;
  let complete = true;
  const walk = (dir: string, depth: number) => {
    for (const entry of folderEntries(dir)) {
      if (++seen > linkScanLimits.maxEntries) {
        complete = false;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isSymlink) {
        const target = realPathOrUndefined(path);
        if (target === undefined) continue; // dangling: leads nowhere now
        if (!roots.some((root) => isPathInside(target, root))) links.push({ link: path, target });
      } else if (entry.isDirectory) {
        if (depth >= linkScanLimits.maxDepth) complete = false;
        else walk(path, depth + 1);
      }
      if (!complete && seen > linkScanLimits.maxEntries) return;
    }
  };
  for (const root of roots) {
    if (isFolder(root)) walk(root, 0); // else not there yet
  }
  return { links, complete };
}
