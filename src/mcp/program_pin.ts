/**
 * What an MCP approval pins besides the command line: the content of the program's files. Every
 * argument of the command that names an existing regular file (the program itself found on the
 * sandbox's PATH, a script, a module) is hashed at approval and again before every start; a
 * server whose files changed does not start until `radar mcp approve` (a model that rewrote the
 * approved server's script in a writable root gets nothing from it).
 */
import { createHash } from "node:crypto";
import { isAbsolute, join, resolve } from "node:path";
import { isFile } from "../config/quiet_stat.ts";

const cache = new Map<string, string>();

/** The files of `command`: argv entries that are regular files (argv[0] looked up on `path`). */
function programFiles(command: readonly string[], path: string, cwd: string): string[] {
  const files: string[] = [];
  command.forEach((argument, index) => {
    const candidates = index === 0 && !argument.includes("/")
      ? path.split(":").filter(Boolean).map((folder) => join(folder, argument))
      : [isAbsolute(argument) ? argument : resolve(cwd, argument)];
    const found = candidates.find(isFile);
    if (found && !files.includes(found)) files.push(found);
  });
  return files;
}

/** sha256 of one file, streamed (cached while its identity, size and time stay the same). */
function fileHash(file: string): string {
  const info = Deno.statSync(file);
  const key = `${file}\0${info.dev}\0${info.ino}\0${info.size}\0${info.mtime?.getTime()}`;
  const known = cache.get(key);
  if (known) return known;
  const hash = createHash("sha256");
  const handle = Deno.openSync(file, { read: true });
  try {
    const buffer = new Uint8Array(1 << 20);
    for (let read = handle.readSync(buffer); read; read = handle.readSync(buffer)) {
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    handle.close();
  }
  const digest = hash.digest("hex");
  cache.set(key, digest);
  return digest;
}

/** The hash an approval pins over the program's files ("" for an HTTP server). */
export function programHash(command: readonly string[], path: string, cwd: string): string {
  if (!command.length) return "";
  const files = programFiles(command, path, cwd).map((file) => [file, fileHash(file)]);
  return createHash("sha256").update(JSON.stringify(files)).digest("hex");
}
