/** Resolves a path the way the kernel will: `~`, `..` and every symlink, even dangling ones. */
import { dirname, isAbsolute, join, normalize } from "node:path";

/** The file-system calls canonicalisation needs (Deno's in production). */
export interface LinkReader {
  /** "link" for a symlink, "other" for anything else that exists, undefined when missing. */
  kind(path: string): "link" | "other" | undefined;
  readLink(path: string): string;
}

/** Reads links through Deno's synchronous file APIs. */
export const denoLinkReader: LinkReader = {
  kind(path) {
    try {
      return Deno.lstatSync(path).isSymlink ? "link" : "other";
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
        return undefined;
      }
      return "other";
    }
  },
  readLink: (path) => Deno.readLinkSync(path),
};

/** Thrown for a path that cannot be accepted at all. */
export class PathSyntaxError extends Error {}

/**
 * Expands `~` and `~/` to `home`; `~user` is refused (ambiguous and rarely meant).
 * Relative paths are taken from `cwd`.
 */
export function absolutePath(path: string, home: string, cwd: string): string {
  if (path.includes("\0")) throw new PathSyntaxError("the path contains a NUL byte");
  const trimmed = path.trim();
  if (!trimmed) throw new PathSyntaxError("the path is empty");
  let expanded = trimmed;
  if (trimmed === "~") expanded = home;
  else if (trimmed.startsWith("~/")) expanded = `${home}/${trimmed.slice(2)}`;
  else if (trimmed.startsWith("~")) {
    throw new PathSyntaxError("~user paths are not supported; give an absolute path");
  }
  return isAbsolute(expanded) ? expanded : `${cwd}/${expanded}`;
}

/**
 * The real path of an absolute path: each existing component is checked for a symlink (whose
 * target is followed, even when dangling), `..` applies to the real parent, and a missing tail
 * is appended as written (normalised).
 */
export function canonicalPath(path: string, reader: LinkReader = denoLinkReader): string {
  return walk(path, reader, 0);
}

function walk(path: string, reader: LinkReader, depth: number): string {
  if (depth > 40) throw new PathSyntaxError("too many levels of symbolic links");
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  let current = "/";
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    const kind = reader.kind(next);
    if (kind === undefined) return normalize(join(next, ...parts.slice(index + 1)));
    if (kind === "link") {
      let target: string;
      try {
        target = reader.readLink(next);
      } catch {
        // It was a link a moment ago (lstat) and is not now: something is swapping it.
        throw new PathSyntaxError("the path changed while it was being checked");
      }
      const base = isAbsolute(target) ? target : `${current}/${target}`;
      return walk(`${base}/${parts.slice(index + 1).join("/")}`, reader, depth + 1);
    }
    current = next;
  }
  return current;
}
