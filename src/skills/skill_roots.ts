/**
 * Where Agent Skills live and a cheap stamp of them (names and modification times, no parsing), so
 * the catalog notices a changed, added or removed skill.
 */
import { join, resolve } from "node:path";
import { folderEntries } from "../config/quiet_stat.ts";

/** A folder searched for skills, and what it is. */
export interface SkillRoot {
  path: string;
  source: "bundled" | "data" | "config";
}

/** The bundled skills folder (inside the compiled binary too: `deno task compile` includes it). */
export function bundledSkillsPath(): string {
  return decodeURIComponent(new URL("../../skills/", import.meta.url).pathname).replace(/\/$/, "");
}

/** The folders to search, lowest precedence first (a later skill of the same name wins). */
export function skillRoots(
  config: { skills?: { enabled: boolean; dirs: string[] } },
  dataDir: string,
  env: Record<string, string | undefined>,
  cwd = "/",
): SkillRoot[] {
  if (config.skills && !config.skills.enabled) return [];
  const home = env.HOME ?? "";
  const expand = (path: string) =>
    resolve(cwd, path === "~" ? home : path.startsWith("~/") ? home + path.slice(1) : path);
  return [
    { path: bundledSkillsPath(), source: "bundled" },
    { path: join(dataDir, "skills"), source: "data" },
    ...(config.skills?.dirs ?? []).map((path) => ({
      path: expand(path),
      source: "config" as const,
    })),
  ];
}

/** Names and times of every SKILL.md under the roots: equal stamps, same skills. */
export function skillStamp(roots: readonly SkillRoot[]): string {
  const parts: string[] = [];
  for (const root of roots) {
    parts.push(`${root.path}:${mtime(join(root.path, "SKILL.md"))}`);
    for (const entry of folderEntries(root.path).sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (entry.isFile) continue;
      parts.push(`${entry.name}:${mtime(join(root.path, entry.name, "SKILL.md"))}`);
    }
  }
  return parts.join("|");
}

function mtime(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.mtime?.getTime() ?? 0}.${info.size}`;
  } catch {
    return "-";
  }
}

/** What a skill needs that is not here: programs missing from PATH, unset variables. */
export function missingRequirements(
  requires: { bins: readonly string[]; env: readonly string[] },
  env: Record<string, string | undefined>,
): string[] {
  const folders = (env.PATH ?? "").split(":").filter((folder) => folder.startsWith("/"));
  const missing = requires.bins.filter((bin) =>
    !folders.some((folder) => isExecutable(join(folder, bin)))
  ).map((bin) => `program ${bin}`);
  for (const name of requires.env) if (!env[name]) missing.push(`variable ${name}`);
  return missing;
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}
