/** Turns config and Radar's places into the sandbox spec of one exec call. */
import { existsSync } from "node:fs";
import { expandHome } from "../../config/paths.ts";
import { resolve } from "node:path";
import { type ProtectedLocation, protectedLocations } from "../../core/protected_paths.ts";
import { isInside } from "./path_guard.ts";
import {
  checkedRoots,
  ensureScratchFolder,
  type FileAccessDependencies,
  pathGuardFor,
  radarPlaces,
} from "./file_access.ts";
import {
  detectSandbox,
  type SandboxProgram,
  type SandboxSpec,
  socketFiles,
  socketFolders,
} from "./sandbox.ts";
import { realPathOrUndefined } from "../../config/quiet_stat.ts";
import { firstLine } from "../../core/errors.ts";

/** The sandbox exec uses with this config: a program, or why there is none. */
export function execSandbox(
  deps: Pick<FileAccessDependencies, "config" | "env">,
): { program?: SandboxProgram; problem?: string } {
  if (!deps.config.tools.exec.sandbox) {
    return { problem: "tools.exec.sandbox is false" };
  }
  const program = detectSandbox(Deno.build.os, deps.env.PATH, existsSync);
  if (program) {
    const problem = startProblem(program);
    return problem ? { problem } : { program };
  }
  return {
    problem: Deno.build.os === "linux"
      ? "bubblewrap is not installed (apt-get install bubblewrap)"
      : `no sandbox program exists for ${Deno.build.os}`,
  };
}

const probes = new Map<string, string | undefined>();

/**
 * Why the sandbox cannot start here, once per process: bubblewrap needs user namespaces, which
 * some systems switch off (e.g. an AppArmor rule); a sandbox that cannot start counts as none.
 */
function startProblem(program: SandboxProgram): string | undefined {
  if (program.kind !== "bubblewrap") return undefined;
  if (!probes.has(program.path)) {
    let problem: string | undefined;
    try {
      const output = new Deno.Command(program.path, {
        args: [
          "--ro-bind",
          "/",
          "/",
          "--unshare-pid",
          "--unshare-net",
          "--die-with-parent",
          "--",
          "/bin/true",
        ],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).outputSync();
      if (!output.success) {
        const reason = new TextDecoder().decode(output.stderr).trim().split("\n")[0];
        problem = `${program.path} cannot start a sandbox here (${
          reason || `exit ${output.code}`
        })`;
      }
    } catch (error) {
      problem = `${program.path} cannot run (${firstLine(error)})`;
    }
    probes.set(program.path, problem);
  }
  return probes.get(program.path);
}

/** A protected location with its real path, when it exists. */
interface Located {
  location: ProtectedLocation;
  real?: string;
}

/** Every protected location (plus tools.files.blocked_paths) with its real path, looked up once. */
function locate(deps: FileAccessDependencies): Located[] {
  const blocked = deps.config.tools.files.blocked_paths.map((path): ProtectedLocation => ({
    path: resolve(deps.cwd ?? Deno.cwd(), expandHome(path, deps.env)),
    label: path,
    kind: "secret",
    why: "tools.files.blocked_paths",
  }));
  return [...protectedLocations(radarPlaces(deps)), ...blocked].map((location) => ({
    location,
    real: realPathOrUndefined(location.path),
  }));
}

/**
 * Why a folder cannot be a writable root, if it cannot: it holds a protected location (a
 * writable ~ would let a command create ~/.bashrc or ~/.ssh/authorized_keys that do not exist
 * yet, which no mount can cover).
 */
function rootProblem(root: string, located: readonly Located[]): string | undefined {
  const inside = located.find(({ location, real }) =>
    isInside(location.path, root, true) || (real !== undefined && isInside(real, root, true))
  );
  return inside ? `it contains ${inside.location.label} (${inside.location.why})` : undefined;
}

/** The user's writable roots for exec that pass the path guard, canonical, existing folders. */
export function execUserRoots(
  deps: FileAccessDependencies,
  located: readonly Located[] = locate(deps),
): string[] {
  return checkedRoots(pathGuardFor(deps), deps.config.tools.exec.writable_roots)
    .filter((root) => kindOf(root) === "folder" && rootProblem(root, located) === undefined);
}

/** Builds the spec: scratch (+ the user's roots when `writeRoots`), everything protected hidden. */
export function execSandboxSpec(
  deps: FileAccessDependencies,
  options: { cwd: string; writeRoots: boolean; uid: number | null },
): SandboxSpec {
  const settings = deps.config.tools.exec;
  const located = locate(deps);
  const scratch = ensureScratchFolder(deps);
  const scratchProblem = rootProblem(scratch, located);
  if (scratchProblem) {
    throw new Error(`the scratch folder ${scratch} cannot be used: ${scratchProblem}`);
  }
  const writableRoots = [scratch, ...(options.writeRoots ? execUserRoots(deps, located) : [])];
  const hiddenFolders: string[] = [];
  const hiddenFiles: string[] = [];
  const hide = (path: string) => {
    const kind = kindOf(path);
    if (kind === "folder") hiddenFolders.push(path);
    else if (kind === "file") hiddenFiles.push(path);
  };
  for (const { location, real } of located) {
    if (real && location.kind !== "startup") hide(real);
  }
  // Session bus, key agents, Docker: hidden even when the network is allowed.
  for (const path of [...socketFolders, ...socketFiles]) {
    const real = realPathOrUndefined(path);
    if (real) hide(real);
  }
  return {
    writableRoots,
    hiddenFolders: unique(hiddenFolders),
    hiddenFiles: unique(hiddenFiles),
    allowNetwork: settings.allow_network,
    cwd: options.cwd,
    limits: {
      processes: settings.max_processes,
      cpuSeconds: Math.ceil(settings.timeout_seconds) + 1,
      memoryBytes: settings.max_memory_mb * 1024 * 1024,
    },
    asRoot: options.uid === 0,
  };
}

function kindOf(path: string): "folder" | "file" | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? "folder" : "file"; // sockets are covered like files
  } catch {
    return undefined;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
