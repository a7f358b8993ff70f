/**
 * Agent Skills discovery (agentskills.io format): each folder holding a `SKILL.md` whose YAML front
 * matter names it (the folder's name) and describes it. Bad files are skipped with one line each;
 * skills whose `requires.bins` are not on PATH or whose `requires.env` variables are unset are
 * kept out of the model's view (`radar skill list` shows why). Results are cached until a
 * SKILL.md's name, time or size changes, or, under `radar serve`, until its folder watcher
 * (src/daemon/skill_sources.ts) reports a change.
 */
import { z } from "zod";
import { join } from "node:path";
import { readFrontMatter } from "../config/front_matter.ts";
import { bundledSkillFrontMatter } from "../config/bundled_front_matter.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { folderEntries, isFile } from "../config/quiet_stat.ts";
import type { SkillSummary } from "../core/system_prompt.ts";
import { missingRequirements, type SkillRoot, skillStamp } from "./skill_roots.ts";

/** Largest SKILL.md read (a bigger one is refused: small models need short instructions). */
const maxSkillFileBytes = 64 * 1024;

/**
 * What a SKILL.md's front matter must hold, built on first use: the bundled skills' front matter
 * is checked ahead (`bundledSkillFrontMatter`), so a start with only those builds no schema.
 */
export const skillFrontMatter = lazyValue(() => {
  const skillName = z.string().regex(
    /^[a-z0-9]+(-[a-z0-9]+)*$/,
    "expected lowercase letters, digits and single hyphens",
  ).max(64);
  return z.object({
    name: skillName,
    description: z.string().trim().min(1, "a description is required").max(1024),
    license: z.string().optional(),
    compatibility: z.string().max(500).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    "allowed-tools": z.unknown().optional(),
    requires: z.object({
      bins: z.array(z.string().regex(/^[\w.+-]+$/, "a program name")).default([]),
      env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name")).default([]),
    }).prefault({}),
  });
});

/** One discovered skill. */
export interface SkillInfo extends SkillSummary {
  /** The skill's folder. */
  dir: string;
  source: SkillRoot["source"];
  compatibility?: string;
  requires: { bins: string[]; env: string[] };
  /** Why it is hidden here (missing programs or variables); empty when usable. */
  missing: string[];
}

/** What discovery found. */
export interface SkillDiscovery {
  skills: SkillInfo[];
  warnings: string[];
}

/** Reads and checks one skill folder: the skill, or a one-line problem. */
function readSkill(
  dir: string,
  source: SkillRoot["source"],
  folderName: string,
): SkillInfo | string {
  const file = join(dir, "SKILL.md");
  let text: string;
  try {
    if (Deno.statSync(file).size > maxSkillFileBytes) {
      return `${file}: larger than ${maxSkillFileBytes / 1024} KiB`;
    }
    text = Deno.readTextFileSync(file);
  } catch (error) {
    return `${file}: ${(error as Error).message}`;
  }
  const parsed = readFrontMatter(text, skillFrontMatter, file, {
    missing: "no front matter (a --- block with name and description)",
    checkedAhead: bundledSkillFrontMatter,
  });
  if (!parsed.ok) return parsed.problem;
  if (parsed.data.name !== folderName) {
    return `${file}: name "${parsed.data.name}" must match its folder "${folderName}"`;
  }
  return {
    name: parsed.data.name,
    description: parsed.data.description,
    dir,
    source,
    compatibility: parsed.data.compatibility,
    requires: parsed.data.requires,
    missing: [],
  };
}

/** Finds every skill under the roots; a later root's skill replaces an earlier one of its name. */
function discoverSkills(
  roots: readonly SkillRoot[],
  env: Record<string, string | undefined>,
): SkillDiscovery {
  const byName = new Map<string, SkillInfo>();
  const warnings: string[] = [];
  const add = (dir: string, source: SkillRoot["source"], name: string) => {
    const skill = readSkill(dir, source, name);
    if (typeof skill === "string") warnings.push(`skills: ${skill}`);
    else byName.set(skill.name, { ...skill, missing: missingRequirements(skill.requires, env) });
  };
  for (const root of roots) {
    if (isFile(join(root.path, "SKILL.md"))) {
      add(root.path, root.source, root.path.split("/").pop() ?? "");
      continue;
    }
    const entries = folderEntries(root.path); // a missing folder is normal (no skills installed)
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (entry.isFile || entry.name.startsWith(".")) continue;
      const dir = join(root.path, entry.name);
      if (!isFile(join(dir, "SKILL.md"))) continue;
      add(dir, root.source, entry.name);
    }
  }
  const skills = [...byName.values()].sort((a, b) => a.name < b.name ? -1 : 1);
  return { skills, warnings };
}

/**
 * Discovery cached until the skill files change: a stat of each SKILL.md per look, or, while a
 * folder watcher (`radar serve`) reports every change, no stat at all until `invalidate()`.
 */
export class SkillCatalog {
  #stamp = "";
  #watched = false;
  #found: SkillDiscovery = { skills: [], warnings: [] };
  #onWarnings: (warnings: string[]) => void;

  constructor(
    private readonly roots: () => readonly SkillRoot[],
    private readonly env: Record<string, string | undefined>,
    onWarnings: (warnings: string[]) => void = () => {},
  ) {
    this.#onWarnings = onWarnings;
  }

  /** Every valid skill, usable here or not, and the warnings of the last discovery. */
  discover(): SkillDiscovery {
    if (this.#watched && this.#stamp) return this.#found;
    const roots = this.roots();
    const stamp = skillStamp(roots);
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#found = discoverSkills(roots, this.env);
      if (this.#found.warnings.length) this.#onWarnings(this.#found.warnings);
    }
    return this.#found;
  }

  /** Forgets the cached discovery: the next look reads the skill folders again. */
  invalidate(): void {
    this.#stamp = "";
  }

  /**
   * `true` while a watcher covers every skill folder that can change (it calls `invalidate()` on
   * each change), so looks trust the cache; `false` goes back to checking the files on each look.
   */
  setWatched(watched: boolean): void {
    this.#watched = watched;
    this.invalidate();
  }

  /** Whether a watcher keeps this catalog fresh (`radar status`, tests). */
  get watched(): boolean {
    return this.#watched;
  }

  /** The skills the model may use here (requirements met). */
  available(): SkillInfo[] {
    return this.discover().skills.filter((skill) => !skill.missing.length);
  }
}
