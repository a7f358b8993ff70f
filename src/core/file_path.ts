/**
 * POSIX path helpers for the start path of `radar ask`. `node:path` costs 9–13 ms to load in Deno
 * 2.9 (it initialises Node compatibility); these few functions cost nothing. Radar runs on macOS
 * and Linux only. Behaviour matches node:path's posix functions (tests compare them).
 */

/** Normalises `.`, `..` and repeated slashes; keeps a leading slash; "" becomes ".". */
export function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length && parts[parts.length - 1] !== "..") parts.pop();
      else if (!absolute) parts.push("..");
    } else {
      parts.push(part);
    }
  }
  const joined = parts.join("/");
  if (absolute) return `/${joined}`;
  return joined || ".";
}

/** Joins segments and normalises the result (like node:path join). */
export function joinPath(...segments: string[]): string {
  const nonEmpty = segments.filter((segment) => segment.length > 0);
  return nonEmpty.length ? normalizePath(nonEmpty.join("/")) : ".";
}

/** True for an absolute path. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/");
}

/** Resolves `path` against `base` (an absolute folder), like node:path resolve(base, path). */
export function resolvePath(base: string, path: string): string {
  return normalizePath(isAbsolutePath(path) ? path : `${base}/${path}`);
}

/** The folder part of a path, normalised (node:path dirname keeps inner double slashes). */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  if (!trimmed) return path.startsWith("/") ? "/" : ".";
  const index = trimmed.lastIndexOf("/");
  if (index < 0) return ".";
  if (index === 0) return "/";
  return normalizePath(trimmed.slice(0, index) || "/");
}
