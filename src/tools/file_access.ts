/** Builds the path guard the file tools share from their dependencies. */
import { homeDirectory } from "../config/paths.ts";
import { PathGuard } from "./path_guard.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** The dependencies file tools use. */
export type FileToolDependencies = Pick<
  ToolDependencies,
  "config" | "configPath" | "dataDir" | "env" | "cwd"
>;

/** The path guard for these dependencies (rules from tools.files and the data directory). */
export function pathGuardFor(deps: FileToolDependencies): PathGuard {
  return new PathGuard({
    home: homeDirectory(deps.env),
    cwd: deps.cwd ?? Deno.cwd(),
    dataDir: deps.dataDir,
    configPath: deps.configPath,
    blockedPaths: deps.config.tools.files.blocked_paths,
    allowedRoots: deps.config.tools.files.allowed_roots,
  });
}
