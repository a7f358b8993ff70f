/**
 * The exec sandbox: bubblewrap on Linux, sandbox-exec on macOS. The filesystem is read-only
 * except the writable roots and a private /tmp, secret folders are hidden, and there is no
 * network unless allowed.
 */

/** Which sandbox program is used. */
export type SandboxKind = "bubblewrap" | "sandbox-exec";

/** A sandbox found on this machine. */
export interface SandboxProgram {
  kind: SandboxKind;
  path: string;
}

/** What the sandbox allows. */
export interface SandboxSpec {
  /** Absolute, canonical folders the command may write. */
  writableRoots: string[];
  allowNetwork: boolean;
  /** Existing secret folders and files hidden from the command. */
  hiddenFolders: string[];
  hiddenFiles: string[];
  cwd: string;
  /** Folders (home, cwd) shown read-only even when they live under the private /tmp. */
  visibleFolders?: string[];
}

/** Finds bubblewrap (Linux) or sandbox-exec (macOS) on PATH or in the usual places. */
export function detectSandbox(
  os: string,
  pathVariable: string | undefined,
  exists: (path: string) => boolean,
): SandboxProgram | undefined {
  const folders = [...(pathVariable ?? "").split(":").filter(Boolean), "/usr/bin", "/bin"];
  const find = (name: string) =>
    folders.map((folder) => `${folder}/${name}`).find((path) => exists(path));
  if (os === "linux") {
    const path = find("bwrap");
    return path ? { kind: "bubblewrap", path } : undefined;
  }
  if (os === "darwin") {
    return exists("/usr/bin/sandbox-exec")
      ? { kind: "sandbox-exec", path: "/usr/bin/sandbox-exec" }
      : undefined;
  }
  return undefined;
}

/** The bubblewrap arguments that run `/bin/sh -c command` inside the sandbox. */
export function bubblewrapArguments(spec: SandboxSpec, command: string): string[] {
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
  for (const folder of spec.visibleFolders ?? []) {
    if (folder.startsWith("/tmp/")) args.push("--ro-bind", folder, folder);
  }
  for (const folder of spec.hiddenFolders) args.push("--tmpfs", folder);
  for (const file of spec.hiddenFiles) args.push("--ro-bind", "/dev/null", file);
  for (const root of spec.writableRoots) args.push("--bind", root, root);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts");
  if (!spec.allowNetwork) args.push("--unshare-net");
  args.push(
    "--die-with-parent",
    "--new-session",
    "--chdir",
    spec.cwd,
    "--",
    "/bin/sh",
    "-c",
    command,
  );
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
  if (!spec.allowNetwork) lines.push("(deny network*)", "(allow network* (remote unix-socket))");
  return `${lines.join("\n")}\n`;
}

/** The argv that runs `command` in the given sandbox (or plainly, without one). */
export function sandboxedArgv(
  program: SandboxProgram | undefined,
  spec: SandboxSpec,
  command: string,
): string[] {
  if (!program) return ["/bin/sh", "-c", command];
  if (program.kind === "bubblewrap") return [program.path, ...bubblewrapArguments(spec, command)];
  return [program.path, "-p", seatbeltProfile(spec), "/bin/sh", "-c", command];
}
