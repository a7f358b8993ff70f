/**
 * `use_skill`: loads an Agent Skill's instructions (and lists its files) when a task calls for it;
 * without a name it lists the skills. Names map only to discovered skills, never to paths; a
 * resource is read only from the skill's scripts/, references/ or assets/ (no `..`, no link out).
 */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { SkillLibrary } from "../core/system_prompt.ts";

/** use_skill's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const useSkillInput = lazyValue(() =>
  z.object({
    // One parameter: "skill" loads it, "skill/scripts/x.sh" reads one of its files (skill names
    // hold no "/"), nothing lists the skills. A second parameter cost tokens on every request.
    name: z.string().max(365).optional().describe("Omit to list"),
  })
);

/** Creates the use_skill tool over the usable skills. */
export function useSkillTool(deps: { skills: SkillLibrary }): Tool {
  return defineTool({
    name: "use_skill",
    effect: "none",
    // Skill and tool texts are outside text a run reads; they hold nothing of the user's.
    results: "public",
    description: "Load a skill",
    // Offered on every request while skills are listed in the system prompt.
    alwaysOn: deps.skills.available().length > 0,
    keywords: ["skill", "how", "steps", "briefing", "review", "triage"],
    parameters: toolParameters.use_skill,
    input: useSkillInput,
    run: ({ name: asked }) => {
      const slash = asked?.indexOf("/") ?? -1;
      const name = slash < 0 ? asked : asked!.slice(0, slash);
      const resource = slash < 0 ? undefined : asked!.slice(slash + 1);
      const skills = deps.skills.available();
      const names = skills.map((skill) => skill.name).join(", ") || "none";
      if (!asked) {
        if (!skills.length) return Promise.resolve("No skills are installed.");
        return Promise.resolve(
          skills.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n"),
        );
      }
      const loaded = name ? deps.skills.load(name) : undefined;
      if (!name || !loaded) {
        return Promise.resolve(failed(`No skill named "${name}". Skills: ${names}.`));
      }
      if (resource) {
        const read = deps.skills.readResource(name, resource);
        return Promise.resolve("error" in read ? failed(read.error) : read.text);
      }
      const lines = [`Skill ${loaded.name} (folder ${loaded.dir}):`, "", loaded.body];
      if (loaded.resources.length) {
        lines.push(
          "",
          `Files of this skill (read one with use_skill name "${loaded.name}/FILE"; run a script ` +
            "only with the exec tool, which runs it in its sandbox):",
          ...loaded.resources.map((path) => `- ${path}`),
        );
      }
      // Tools the skill works with join the offer (on-demand ones such as comic_info too).
      return Promise.resolve({
        text: lines.join("\n"),
        outcome: "ok" as const,
        offerTools: loaded.allowedTools,
      });
    },
  });
}
