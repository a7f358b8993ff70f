/**
 * The command line that starts an approved stdio MCP server inside the exec sandbox: the
 * approved folders are its only writable roots (checked like `tools.exec.writable_roots`: a
 * folder holding a protected location is dropped), every secret and Radar folder is hidden, and
 * so is everything else in the home folder but the approved (and read-only approved) folders; no
 * network unless approved, and an environment holding only PATH and the approved variables.
 * Under bubblewrap home is an empty read-only tmpfs with the approved folders bound back, so a
 * file created in home after the server started is invisible too; sandbox-exec hides home's
 * entries as listed at start. Under bubblewrap /etc holds only what programs need to run and
 * reach the network (certificates, DNS, users, time zone, the dynamic linker's cache) and /opt
 * is empty unless the server's program lives there; /usr and the rest stay readable.
 */
import { programHash } from "./program_pin.ts";
// @ts-types="@types/shell-quote"
import { quote } from "shell-quote";
import { execSandbox, execSandboxSpec, execUserRoots } from "../adapters/os/sandbox_spec.ts";
import { sandboxedArgv, type SandboxSpec } from "../adapters/os/sandbox.ts";
import { type FileAccessDependencies, radarPlaces } from "../adapters/os/file_access.ts";
import { isInside } from "../adapters/os/path_guard.ts";
import { dirname, join, relative, sep } from "node:path";
import type { McpApproval } from "./approval.ts";
import type { ProcessLaunch } from "./sandboxed_stdio_transport.ts";
import { folderEntries, realPathOrUndefined } from "../config/quiet_stat.ts";

/** The PATH a server runs with (and its program is looked up on, for the approval's pin). */
export const defaultPath = "/usr/local/bin:/usr/bin:/bin";

/** CPU seconds over a server's whole life; past them the kernel kills it (restarted on use). */
const cpuSecondsPerLife = 600;

/**
 * What of /etc a server sees (measured: deno and node read these to start, verify TLS and resolve
 * names); the rest (shadow, machine-id, host keys, service configs) is hidden.
 */
const systemEntries = [
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/pki",
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/nsswitch.conf",
  "/etc/gai.conf",
  "/etc/services",
  "/etc/protocols",
  "/etc/passwd",
  "/etc/group",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ld.so.preload",
  "/etc/alternatives",
  "/etc/os-release",
  "/etc/mime.types",
];

/**
 * The sandboxed launch of one server, or why it cannot start. `hidden` says, for each program or
 * script on its command line that the sandbox hides, why and what to grant.
 */
export function sandboxLaunch(
  deps: FileAccessDependencies,
  approval: McpApproval,
): { launch: ProcessLaunch; folders: string[]; hidden: string[] } | { problem: string } {
  const sandbox = execSandbox(deps);
  if (!sandbox.program) {
    return { problem: `no sandbox for MCP servers: ${sandbox.problem}` };
  }
  const pinned = programHash(approval.command, defaultPath, approval.folders[0] ?? "/");
  if (approval.programHash !== pinned) {
    return {
      problem: `its program changed since approval (or was approved before Radar pinned ` +
        `programs): radar mcp approve ${approval.name}`,
    };
  }
  const scoped: FileAccessDependencies = {
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
  spec.readableRoots = approval.readFolders.flatMap((path) => realPathOrUndefined(path) ?? []);
  const home = realPathOrUndefined(radarPlaces(scoped).home);
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
  if (sandbox.program.kind === "bubblewrap") narrowSystem(spec, approval.command[0] ?? "");
  spec.allowNetwork = approval.network;
  spec.limits = { ...spec.limits, cpuSeconds: cpuSecondsPerLife };
  const env: Record<string, string> = { PATH: defaultPath };
  for (const name of approval.env) {
    const value = deps.env[name];
    if (value !== undefined) env[name] = value;
  }
  const command = `exec ${quote(approval.command)}`;
  const hidden = approval.command.flatMap((entry) => {
    const why = entry.startsWith("/") ? hiddenBySandbox(spec, entry) : undefined;
    return why ? [why] : [];
  });
  return {
    launch: { argv: sandboxedArgv(sandbox.program, spec, command), env, cwd },
    folders,
    hidden,
  };
}

/**
 * Why the server cannot see `path` (an existing file on its command line) and what to grant, or
 * undefined when it can: under /tmp (the sandbox's /tmp is private and empty), in a folder the
 * sandbox empties (home, /etc, /opt) and not granted, or in a protected location.
 */
function hiddenBySandbox(spec: SandboxSpec, path: string): string | undefined {
  const real = realPathOrUndefined(path);
  if (!real) return undefined; // missing outside the sandbox too: its own error says so
  const granted = [...spec.writableRoots, ...(spec.readableRoots ?? [])]
    .some((root) => isInside(real, root, true));
  const protectedPlace = spec.hiddenFolders.some((folder) => isInside(real, folder, true)) ||
    spec.hiddenFiles.includes(real);
  if (protectedPlace) {
    return `the sandbox hides ${path} (a protected location: secrets or Radar's own folders); ` +
      `install the server elsewhere`;
  }
  if (granted) return undefined;
  // The innermost folder that hides it (a home under /tmp is hidden as a home).
  const hiding = ["/tmp", ...(spec.emptyFolders ?? [])]
    .filter((folder) => isInside(real, folder, true))
    .sort((left, right) => right.length - left.length)[0];
  if (!hiding) return undefined;
  const top = join(hiding, relative(hiding, real).split(sep)[0]);
  const folder = top === real ? dirname(real) : top;
  const place = hiding === "/tmp"
    ? "under /tmp, which the sandbox replaces with an empty private /tmp"
    : `in ${hiding}, which the sandbox hides from MCP servers`;
  return `the sandbox hid its program: ${path} is ${place}; install it elsewhere or grant ` +
    `its folder read-only (radar mcp add … --read ${folder}, or read_folders: [${folder}])`;
}

/**
 * Empties /etc and /opt and binds back the system entries (links made again as links) and the
 * /opt folder of a program that lives there; hidden entries inside them are dropped.
 */
function narrowSystem(spec: SandboxSpec, program: string): void {
  const readable = [...(spec.readableRoots ?? [])];
  const symlinks: Array<{ path: string; target: string }> = [];
  for (const path of systemEntries) {
    try {
      if (Deno.lstatSync(path).isSymlink) symlinks.push({ path, target: Deno.readLinkSync(path) });
      else readable.push(path);
    } catch { /* not on this system */ }
  }
  const optFolder = /^\/opt\/[^/]+/.exec(realPathOrUndefined(program) ?? program)?.[0];
  if (optFolder && realPathOrUndefined(optFolder)) readable.push(optFolder);
  const emptied = ["/etc", "/opt"].filter((folder) => realPathOrUndefined(folder) === folder);
  spec.emptyFolders = [...(spec.emptyFolders ?? []), ...emptied];
  spec.symlinks = [...(spec.symlinks ?? []), ...symlinks];
  spec.readableRoots = readable;
  const visible = [...readable, ...spec.writableRoots];
  const shown = (path: string) =>
    !emptied.some((folder) => isInside(path, folder, true)) ||
    visible.some((root) => isInside(path, root, true));
  spec.hiddenFolders = spec.hiddenFolders.filter(shown);
  spec.hiddenFiles = spec.hiddenFiles.filter(shown);
}

/** Entries hidden per home: everything not on the way to a visible folder. */
const maxHiddenEntries = 2000;

/**
 * What to hide so only `visible` folders of `home` can be seen: every entry of home that is not
 * visible and holds no visible folder, and the same one level further down each visible
 * folder's ancestors.
 */
function homeHidden(
  home: string,
  visible: readonly string[],
): { folders: string[]; files: string[] } {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = (folder: string) => {
    const entries = folderEntries(folder);
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
