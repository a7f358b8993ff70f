/**
 * The command line that starts an approved stdio MCP server inside the exec sandbox: the
 * approved folders are its only writable roots (checked like `tools.exec.writable_roots`: a
 * folder holding a protected location is dropped), every secret and Radar folder is hidden, and
 * so is everything else in the home folder but the approved (and read-only approved) folders; no
 * network unless approved, and an environment holding only PATH and the approved variables.
 * Under bubblewrap home is an empty read-only tmpfs with the approved folders bound back, so a
 * file created in home after the server started is invisible too; sandbox-exec hides home's
 * entries as listed at start. The system outside home (/usr, /etc, /opt) stays readable.
 */
// @ts-types="@types/shell-quote"
import { quote } from "shell-quote";
import { execSandbox, execSandboxSpec, execUserRoots } from "../tools/exec/sandbox_spec.ts";
import { sandboxedArgv } from "../tools/exec/sandbox.ts";
import { type FileToolDependencies, radarPlaces } from "../tools/file_access.ts";
import { isInside } from "../tools/path_guard.ts";
import { join } from "node:path";
import type { McpApproval } from "./approval.ts";
import type { ProcessLaunch } from "./sandboxed_stdio_transport.ts";

/** The PATH a server gets (its own PATH is not inherited unless approved as a variable). */
const defaultPath = "/usr/local/bin:/usr/bin:/bin";
/** CPU seconds over a server's whole life; past them the kernel kills it (restarted on use). */
const cpuSecondsPerLife = 600;

/** The sandboxed launch of one server, or why it cannot start. */
export function sandboxLaunch(
  deps: FileToolDependencies,
  approval: McpApproval,
): { launch: ProcessLaunch; folders: string[] } | { problem: string } {
  const sandbox = execSandbox(deps);
  if (!sandbox.program) {
    return { problem: `no sandbox for MCP servers: ${sandbox.problem}` };
  }
  const scoped: FileToolDependencies = {
    ...deps,
    config: {
      ...deps.config,
      tools: {
        ...deps.config.tools,
        exec: { ...deps.config.tools.exec, writable_roots: approval.folders },
      },
    },
  };
  const folders = execUserRoots(scoped);
  const cwd = folders[0] ?? "/";
  const spec = execSandboxSpec(scoped, { cwd, writeRoots: true, uid: Deno.uid() });
  spec.writableRoots = folders; // not exec's shared scratch folder
  spec.readableRoots = approval.readFolders.flatMap((path) => realPath(path) ?? []);
  const home = realPath(radarPlaces(scoped).home);
  if (home && home !== "/") {
    const visible = [...folders, ...spec.readableRoots];
    if (sandbox.program.kind === "bubblewrap") {
      spec.emptyFolders = [home];
      // Inside the empty home only what is bound back exists: hide only what lies inside it.
      const shown = (path: string) =>
        !isInside(path, home, true) || visible.some((root) => isInside(path, root, true));
      spec.hiddenFolders = spec.hiddenFolders.filter(shown);
      spec.hiddenFiles = spec.hiddenFiles.filter(shown);
    } else {
      const hidden = homeHidden(home, visible);
      spec.hiddenFolders = [...new Set([...spec.hiddenFolders, ...hidden.folders])];
      spec.hiddenFiles = [...new Set([...spec.hiddenFiles, ...hidden.files])];
    }
  }
  spec.allowNetwork = approval.network;
  spec.limits = { ...spec.limits, cpuSeconds: cpuSecondsPerLife };
  const env: Record<string, string> = { PATH: defaultPath };
  for (const name of approval.env) {
    const value = deps.env[name];
    if (value !== undefined) env[name] = value;
  }
  const command = `exec ${quote(approval.command)}`;
  return { launch: { argv: sandboxedArgv(sandbox.program, spec, command), env, cwd }, folders };
}

/** Entries hidden per home: everything not on the way to a visible folder. */
const maxHiddenEntries = 2000;

/**
 * What to hide so only `visible` folders of `home` can be seen: every entry of home that is not
 * visible and holds no visible folder, and the same one level further down each visible
 * folder's ancestors.
 */
export function homeHidden(
  home: string,
  visible: readonly string[],
): { folders: string[]; files: string[] } {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = (folder: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)];
    } catch {
      return;
    }
    for (const entry of entries) {
      if (folders.length + files.length >= maxHiddenEntries) return;
      const path = join(folder, entry.name);
      if (visible.some((shown) => isInside(path, shown, true))) continue; // shown, or inside one
      if (visible.some((shown) => isInside(shown, path, true))) {
        walk(path); // an ancestor of a shown folder: hide its other entries
        continue;
      }
      if (entry.isSymlink) continue; // its target is covered where it lies
      if (entry.isDirectory) folders.push(path);
      else files.push(path);
    }
  };
  walk(home);
  return { folders, files };
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}
