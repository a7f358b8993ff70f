/**
 * A skill's body and resources, read safely: only files under its scripts/, references/ and
 * assets/ folders, never through `..`, and never through a symlink that leads out of the skill's
 * folder (checked on the real path of each file).
 */
import { join, normalize } from "node:path";
import { parse as parseYaml } from "yaml";
import type { LoadedSkill, SkillLibrary, SkillSummary } from "../core/system_prompt.ts";
import { splitFrontMatter } from "../config/front_matter.ts";
import { folderEntries, realPathOrUndefined } from "../config/quiet_stat.ts";
import type { SkillCatalog, SkillInfo } from "./skill_catalog.ts";
import { isPathInside } from "../core/protected_paths.ts";

/** The folders of a skill whose files are its resources. */
const resourceFolders = ["scripts", "references", "assets"] as const;
/** Resources listed per skill at most. */
const maxResources = 100;
/** Characters of one resource `use_skill` returns. */
export const maxResourceChars = 16_000;

/** Lists a skill's resources (relative paths), skipping anything whose real path leaves it. */
function listResources(dir: string): string[] {
  const root = realPathOrUndefined(dir);
  if (!root) return [];
  const found: string[] = [];
  const walk = (relative: string, depth: number) => {
    if (depth > 4 || found.length >= maxResources) return;
    const entries = folderEntries(join(dir, relative));
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (found.length >= maxResources) return;
      const child = `${relative}/${entry.name}`;
      const real = realPathOrUndefined(join(dir, child));
      if (!real || !isPathInside(real, root)) continue; // a link out of the skill
      const info = Deno.statSync(real);
      if (info.isDirectory) walk(child, depth + 1);
      else if (info.isFile) found.push(child);
    }
  };
  for (const folder of resourceFolders) walk(folder, 0);
  return found;
}

/** Reads one resource, refusing `..`, absolute paths, other folders and links out. */
export function readResource(dir: string, resource: string): { text: string } | { error: string } {
  const relative = normalize(resource.replace(/^\.\//, ""));
  const top = relative.split("/")[0];
  if (
    resource.includes("\0") || resource.startsWith("/") || relative.split("/").includes("..") ||
    !(resourceFolders as readonly string[]).includes(top) || relative === top
  ) {
    return {
      error: `"${resource}" is not a resource: use a path under ${resourceFolders.join("/, ")}/`,
    };
  }
  const root = realPathOrUndefined(dir);
  const real = realPathOrUndefined(join(dir, relative));
  if (!root || !real) return { error: `No resource "${relative}" in this skill.` };
  if (!isPathInside(real, root)) return { error: `"${relative}" leads out of the skill's folder.` };
  try {
    if (!Deno.statSync(real).isFile) return { error: `"${relative}" is not a file.` };
    return { text: readHead(real) };
  } catch (error) {
    return { error: `${relative}: ${(error as Error).message}` };
  }
}

/**
 * At most `maxResourceChars` characters of a file, read in one bounded read (4 bytes a character
 * at most), however large the file: a 1.5 GB asset costs 64 KB, not the whole file.
 */
function readHead(path: string): string {
  const file = Deno.openSync(path, { read: true });
  try {
    const size = file.statSync().size;
    const buffer = new Uint8Array(Math.min(size, maxResourceChars * 4));
    let filled = 0;
    while (filled < buffer.length) {
      const read = file.readSync(buffer.subarray(filled));
      if (read === null || read === 0) break;
      filled += read;
    }
    const text = new TextDecoder().decode(buffer.subarray(0, filled));
    if (filled === size && text.length <= maxResourceChars) return text;
    return `${text.slice(0, maxResourceChars)}\n[truncated: the file has ${size} bytes]`;
  } finally {
    file.close();
  }
}

/** Loads a skill's body and resource list. */
export function loadSkill(skill: SkillInfo): LoadedSkill | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(skill.dir, "SKILL.md"));
  } catch {
    return undefined;
  }
  const parts = splitFrontMatter(text);
  return {
    name: skill.name,
    body: (parts?.body ?? text).trim(),
    dir: skill.dir,
    resources: listResources(skill.dir),
    allowedTools: allowedToolsOf(parts?.yaml),
  };
}

/** `allowed-tools` of the front matter: a space-separated string or a list of tool names. */
function allowedToolsOf(yaml: string | undefined): string[] {
  if (!yaml) return [];
  let value: unknown;
  try {
    value = (parseYaml(yaml) as Record<string, unknown>)?.["allowed-tools"];
  } catch {
    return [];
  }
  const names = typeof value === "string"
    ? value.split(/[\s,]+/)
    : Array.isArray(value)
    ? value
    : [];
  return names.filter((name): name is string =>
    typeof name === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(name)
  )
    .slice(0, 20);
}

/** The catalog as the `SkillLibrary` port (usable skills only). */
export function skillLibrary(catalog: SkillCatalog): SkillLibrary {
  const find = (name: string) => catalog.available().find((skill) => skill.name === name);
  return {
    available: (): SkillSummary[] =>
      catalog.available().map(({ name, description, source }) => ({
        name,
        description,
        installed: source !== "bundled",
      })),
    load: (name) => {
      const skill = find(name);
      return skill ? loadSkill(skill) : undefined;
    },
    readResource: (name, resource) => {
      const skill = find(name);
      return skill ? readResource(skill.dir, resource) : { error: `No skill named "${name}".` };
    },
  };
}
