/**
 * How standing grants see paths: with the file tools' own rules. A grant's folder must pass the
 * path guard for writing and hold no protected place (a grant over `~` would cover `~/.ssh`, one
 * over `/` Radar's data folder); the tools still check every call themselves.
 */
import type { GrantPathPolicy } from "./approval_ports.ts";
import { protectedLocations } from "../core/protected_paths.ts";
import { absolutePath, canonicalPath, denoLinkReader } from "../adapters/os/canonical_path.ts";
import {
  type FileAccessDependencies,
  pathGuardFor,
  radarPlaces,
} from "../adapters/os/file_access.ts";
import { isInside } from "../adapters/os/path_guard.ts";

/** The grant path policy for these dependencies. */
export function grantPathPolicy(deps: FileAccessDependencies): GrantPathPolicy {
  const guard = pathGuardFor(deps);
  const places = radarPlaces(deps);
  const cwd = deps.cwd ?? Deno.cwd();
  const canonical = (path: string): string | undefined => {
    try {
      return canonicalPath(absolutePath(path, places.home, cwd), denoLinkReader);
    } catch {
      return undefined;
    }
  };
  let inside: Array<{ path: string; label: string; why: string }> | undefined;
  const protectedPlaces = () =>
    inside ??= [
      ...protectedLocations({
        home: places.home,
        dataDir: places.dataDir,
        configDir: places.configDir,
        cacheDir: places.cacheDir,
        configFile: places.configFile,
        backupFolder: places.backupFolder,
        browserProfile: places.browserProfile,
      }),
      ...deps.config.tools.files.blocked_paths.map((path) => ({
        path,
        label: path,
        why: "tools.files.blocked_paths",
      })),
    ].flatMap((place) => {
      const real = canonical(place.path);
      return real ? [{ ...place, path: real }] : [];
    });
  return {
    canonical,
    display: (path) => guard.display(path),
    problem(folder) {
      const verdict = guard.check(folder, "write");
      if (!verdict.ok) return verdict.reason.replace(/^Cannot write /, "");
      const held = protectedPlaces().find((place) => isInside(place.path, verdict.path));
      if (held) {
        return `${guard.display(verdict.path)} holds ${held.label} (${held.why}); ` +
          "name a folder inside it instead";
      }
      return undefined;
    },
  };
}
