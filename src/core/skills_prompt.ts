/**
 * The `<available_skills>` block of the system prompt: names and one-line descriptions only (the
 * model loads a skill's instructions with `use_skill`). Sorted by name and free of times, so the
 * prompt prefix stays byte-stable between runs. Skills that do not fit the room left are named in
 * a count; `use_skill` without a name lists them all.
 */
import { textForModel } from "./untrusted_text.ts";

/** A skill as the system prompt shows it. */
export interface SkillSummary {
  name: string;
  description: string;
  /** From a folder the user filled (not bundled with Radar): outside text a run reads. */
  installed?: boolean;
}

/** Characters of one description in the prompt. */
const skillDescriptionChars = 160;

/** The block within `room` characters (empty when nothing fits or there are no skills). */
export function skillsBlock(
  skills: readonly SkillSummary[],
  room: number,
): { text: string; omitted: number } {
  if (!skills.length) return { text: "", omitted: 0 };
  const head = "<available_skills>";
  const tail = "</available_skills>\nBefore one of these tasks, call use_skill(name).";
  const sorted = [...skills].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const lines: string[] = [];
  let size = head.length + tail.length + 2;
  const omittedLine = (count: number) => `(${count} more: call use_skill without a name)`;
  for (const [index, skill] of sorted.entries()) {
    const line = `- ${clean(skill.name, 64)}: ${clean(skill.description, skillDescriptionChars)}`;
    const reserve = index < sorted.length - 1 ? omittedLine(sorted.length).length + 1 : 0;
    if (size + line.length + 1 + reserve > room) {
      const omitted = sorted.length - lines.length;
      if (!lines.length) {
        // Not even one fits: one line still tells the model the skills exist.
        const short = "Skills: call use_skill without a name to list them.";
        return { text: short.length <= room ? short : "", omitted };
      }
      lines.push(omittedLine(omitted));
      return { text: [head, ...lines, tail].join("\n"), omitted };
    }
    lines.push(line);
    size += line.length + 1;
  }
  return { text: [head, ...lines, tail].join("\n"), omitted: 0 };
}

function clean(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const flat = textForModel(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").replace(
    /[<>]/g,
    "",
  )
    .replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A skill's instructions and the files that come with it. */
export interface LoadedSkill {
  name: string;
  /** The SKILL.md body (front matter removed). */
  body: string;
  /** The skill's folder (resources are relative to it). */
  dir: string;
  /** Files under scripts/, references/ and assets/, relative to `dir`. */
  resources: string[];
  /** Tools its `allowed-tools` names: offered from the next model round on (on-demand ones too). */
  allowedTools: string[];
}

/** Port: the skills usable here (`use_skill` and the system prompt). */
export interface SkillLibrary {
  /** Skills whose requirements are met, sorted by name. */
  available(): SkillSummary[];
  /** A usable skill's body and resources; undefined when there is none by that name. */
  load(name: string): LoadedSkill | undefined;
  /** A resource's text (a file under scripts/, references/ or assets/), or a one-line problem. */
  readResource(name: string, resource: string): { text: string } | { error: string };
}
