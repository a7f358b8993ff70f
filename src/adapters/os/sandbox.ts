/**
 * The exec sandbox, the security boundary of exec: bubblewrap on Linux, sandbox-exec on macOS.
 * Read-only filesystem except the writable roots and a private /tmp; secret and Radar folders
 * hidden; no network unless allowed; on Linux its
 * own PID namespace (nothing outlives the call, no outside process can be signalled) and
 * RLIMIT_NPROC/CPU/DATA limits through prlimit, plus a pids cgroup where one can be made (the
 * kernel does not apply RLIMIT_NPROC to root: pids_limit.ts).
 */
import { withPidsLimit } from "./pids_limit.ts";

/** Which sandbox program is used. */
export type SandboxKind = "bubblewrap" | "sandbox-exec";

/** A sandbox found on this machine (with prlimit for the resource limits, on Linux). */
export interface SandboxProgram {
  kind: SandboxKind;
  path: string;
  prlimit?: string;
}

/** Resource limits for every process of one command. */
export interface SandboxLimits {
  processes: number;
  cpuSeconds: number;
  /** 0: no limit. */
  memoryBytes: number;
}

/** What the sandbox allows. */
export interface SandboxSpec {
  /** Absolute, canonical, existing folders the command may write. */
  writableRoots: string[];
  /**
   * Folders it may only read. The root is readable anyway; these matter under /tmp, which the
   * sandbox replaces with an empty private one (an approved folder there must be bound back).
   */
  readableRoots?: string[];
  /**
   * Folders replaced by an empty read-only tmpfs (bubblewrap; an MCP server's home): only the
   * roots inside them are bound back, so files created there later stay invisible too.
   * sandbox-exec ignores this (its callers hide entries by listing them).
   */
  emptyFolders?: string[];
  /** Symbolic links made again inside the empty folders (/etc/localtime → its zone file). */
  symlinks?: Array<{ path: string; target: string }>;
  /** Existing secret and Radar folders and files hidden from the command. */
  hiddenFolders: string[];
  hiddenFiles: string[];
  allowNetwork: boolean;
  cwd: string;
  limits: SandboxLimits;
  /** True when the caller is root: capabilities are dropped explicitly. */
  asRoot?: boolean;
}

/** Folders holding local sockets (session bus, Wayland, key agents), always hidden. */
export const socketFolders: readonly string[] = ["/run/user", "/run/dbus", "/var/run/dbus"];
/** Local daemon sockets, always hidden. */
export const socketFiles: readonly string[] = ["/run/docker.sock", "/var/run/docker.sock"];

/** Finds bubblewrap (+ prlimit) on Linux or sandbox-exec on macOS. */
export function detectSandbox(
  os: string,
  pathVariable: string | undefined,
  exists: (path: string) => boolean,
): SandboxProgram | undefined {
  const folders = ["/usr/bin", "/bin", ...(pathVariable ?? "").split(":").filter(Boolean)];
  const find = (name: string) =>
    folders.filter((folder) => folder.startsWith("/"))
      .map((folder) => `${folder}/${name}`).find((path) => exists(path));
  if (os === "linux") {
    const path = find("bwrap");
    return path ? { kind: "bubblewrap", path, prlimit: find("prlimit") } : undefined;
  }
  if (os === "darwin") {
    return exists("/usr/bin/sandbox-exec")
      ? { kind: "sandbox-exec", path: "/usr/bin/sandbox-exec" }
      : undefined;
  }
  return undefined;
}

/** The bubblewrap arguments that run `/bin/sh -c command` inside the sandbox. */
export function bubblewrapArguments(
  spec: SandboxSpec,
  command: string,
  prlimit?: string,
): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  const emptied = ["/tmp", ...(spec.emptyFolders ?? [])];
  const underEmptied = (path: string) => emptied.some((folder) => path.startsWith(`${folder}/`));
  for (const folder of spec.emptyFolders ?? []) args.push("--tmpfs", folder);
  for (const link of spec.symlinks ?? []) args.push("--symlink", link.target, link.path);
  if (underEmptied(spec.cwd)) args.push("--ro-bind", spec.cwd, spec.cwd);
  for (const root of spec.readableRoots ?? []) {
    if (underEmptied(root)) args.push("--ro-bind", root, root);
  }
  for (const root of spec.writableRoots) args.push("--bind", root, root);
  for (const folder of spec.emptyFolders ?? []) args.push("--remount-ro", folder);
  for (const folder of spec.hiddenFolders) args.push("--tmpfs", folder);
  for (const file of spec.hiddenFiles) args.push("--ro-bind", "/dev/null", file);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!spec.allowNetwork) args.push("--unshare-net");
  if (spec.asRoot) args.push("--cap-drop", "ALL");
  args.push("--die-with-parent", "--new-session", "--chdir", spec.cwd, "--");
  if (prlimit) args.push(prlimit, ...prlimitArguments(spec.limits), "--");
  args.push("/bin/sh", "-c", command);
  return args;
}

/** `--nproc=N:N --cpu=S:S [--data=B:B]`: soft and hard limits alike. */
export function prlimitArguments(limits: SandboxLimits): string[] {
  const both = (value: number) => `${value}:${value}`;
  const args = [`--nproc=${both(limits.processes)}`, `--cpu=${both(limits.cpuSeconds)}`];
  if (limits.memoryBytes > 0) args.push(`--data=${both(limits.memoryBytes)}`);
  return args;
}

/** A sandbox-exec (Seatbelt) profile for the spec. */
export function seatbeltProfile(spec: SandboxSpec): string {
  const quote = (path: string) => `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    "(allow file-write*",
    '  (subpath "/private/tmp")',
    '  (subpath "/private/var/folders")',
    '  (literal "/dev/null")',
    '  (literal "/dev/zero")',
    '  (regex #"^/dev/fd/")',
    '  (regex #"^/dev/tty")',
    ...spec.writableRoots.map((root) => `  (subpath ${quote(root)})`),
    ")",
  ];
  if (spec.hiddenFolders.length || spec.hiddenFiles.length) {
    lines.push(
      "(deny file-read* file-write*",
      ...spec.hiddenFolders.map((folder) => `  (subpath ${quote(folder)})`),
      ...spec.hiddenFiles.map((file) => `  (literal ${quote(file)})`),
      ")",
    );
  }
  // No signals to outside processes; no opening apps or scripting them (both run outside).
  lines.push(
    "(deny signal)",
    "(allow signal (target same-sandbox))",
    "(deny lsopen)",
    "(deny appleevent-send)",
  );
  if (!spec.allowNetwork) lines.push("(deny network*)");
  return `${lines.join("\n")}\n`;
}

/** The shell prefix that sets the limits under sandbox-exec (no prlimit on macOS). */
export function ulimitPrefix(limits: SandboxLimits): string {
  const parts = [`ulimit -t ${limits.cpuSeconds}`];
  if (limits.memoryBytes > 0) parts.push(`ulimit -d ${Math.floor(limits.memoryBytes / 1024)}`);
  return `${parts.join(" && ")} && exec /bin/sh -c "$0"`;
}

/** The argv that runs `command` in the given sandbox. */
export function sandboxedArgv(
  program: SandboxProgram,
  spec: SandboxSpec,
  command: string,
): string[] {
  if (program.kind === "bubblewrap") {
    // In a pids cgroup where one can be made: RLIMIT_NPROC alone does not hold for root.
    return withPidsLimit(
      [program.path, ...bubblewrapArguments(spec, command, program.prlimit)],
      spec.limits.processes,
    );
  }
  return [
    program.path,
    "-p",
    seatbeltProfile(spec),
    "/bin/sh",
    "-c",
    ulimitPrefix(spec.limits),
    command,
  ];
}
