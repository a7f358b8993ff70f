/** Turns config and Radar's places into the sandbox spec of one exec call. */
import { existsSync } from "node:fs";
import { protectedLocations } from "../../core/protected_paths.ts";
import { isInside } from "../path_guard.ts";
import {
  checkedRoots,
  ensureScratchFolder,
  type FileToolDependencies,
  pathGuardFor,
  radarPlaces,
} from "../file_access.ts";
import {
  detectSandbox,
  type SandboxProgram,
  type SandboxSpec,
  socketFiles,
  socketFolders,
} from "./sandbox.ts";

/** The sandbox exec uses with this config: a program, or why there is none. */
export function execSandbox(
  deps: Pick<FileToolDependencies, "config" | "env">,
): { program?: SandboxProgram; problem?: string } {
  if (!deps.config.tools.exec.sandbox) {
    return { problem: "tools.exec.sandbox is false" };
  }
  const program = detectSandbox(Deno.build.os, deps.env.PATH, existsSync);
  if (program) return { program };
  return {
    problem: Deno.build.os === "linux"
      ? "bubblewrap is not installed (apt-get install bubblewrap)"
      : `no sandbox program exists for ${Deno.build.os}`,
  };
}

/**
 * Why a folder cannot be a writable root, if it cannot: it holds a protected location (a
 * writable ~ would let a command create ~/.bashrc or ~/.ssh/authorized_keys that do not exist
 * yet, which no mount can cover).
 */
export function rootProblem(root: string, deps: FileToolDependencies): string | undefined {
  const inside = protectedLocations(radarPlaces(deps)).find((location) =>
    isInside(location.path, root, true) || isInside(realPathOf(location.path) ?? "", root, true)
  );
  return inside ? `it contains ${inside.label} (${inside.why})` : undefined;
}

/** The user's writable roots for exec that pass the path guard, canonical, existing folders. */
export function execUserRoots(deps: FileToolDependencies): string[] {
  return checkedRoots(pathGuardFor(deps), deps.config.tools.exec.writable_roots)
    .filter((root) => kindOf(root) === "folder" && rootProblem(root, deps) === undefined);
}

/** Builds the spec: scratch (+ the user's roots when `writeRoots`), everything protected hidden. */
export function execSandboxSpec(
  deps: FileToolDependencies,
  options: { cwd: string; writeRoots: boolean; uid: number | null },
): SandboxSpec {
  const settings = deps.config.tools.exec;
  const scratch = ensureScratchFolder(deps);
  const scratchProblem = rootProblem(scratch, deps);
  if (scratchProblem) {
    throw new Error(`the scratch folder ${scratch} cannot be used: ${scratchProblem}`);
  }
  const writableRoots = [scratch, ...(options.writeRoots ? execUserRoots(deps) : [])];
  const hiddenFolders: string[] = [];
  const hiddenFiles: string[] = [];
  const hide = (path: string) => {
    const kind = kindOf(path);
    if (kind === "folder") hiddenFolders.push(path);
    else if (kind === "file") hiddenFiles.push(path);
  };
  const locations = [
    ...protectedLocations(radarPlaces(deps)),
    ...deps.config.tools.files.blocked_paths.map((path) => ({ path, kind: "secret" })),
  ];
  for (const location of locations) {
    const real = realPathOf(location.path);
    if (!real) continue;
    if (location.kind !== "startup") hide(real);
  }
  if (!settings.allow_network) {
    for (const path of [...socketFolders, ...socketFiles]) {
      const real = realPathOf(path);
      if (real) hide(real);
    }
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

function realPathOf(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
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
