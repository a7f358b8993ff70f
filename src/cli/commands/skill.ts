/** `radar skill list|show`: the Agent Skills Radar found, and one skill's instructions. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import { loadSkill } from "../../skills/skill_files.ts";

/** Registers `skill` and its subcommands. */
export function registerSkill(program: Command, context: CliContext): void {
  const skill = program.command("skill").description("Agent Skills: list and show");
  skill.command("list").description("list skills, where they come from and if they work here")
    .action(async () => {
      const radar = await context.radar();
      const { io } = context;
      if (!radar.config.skills.enabled) io.stdout("Skills are off (skills.enabled).\n");
      // Bad skill files were already reported (one warning line each) when the runtime opened.
      const { skills } = radar.skillCatalog.discover();
      if (!skills.length) {
        io.stdout(`No skills. Add folders with a SKILL.md to ${radar.dataDir}/skills/.\n`);
        return;
      }
      const width = Math.max(...skills.map((item) => item.name.length));
      for (const item of skills) {
        const state = item.missing.length ? `hidden: needs ${item.missing.join(", ")}` : "usable";
        io.stdout(
          `${item.name.padEnd(width)}  ${item.source.padEnd(7)}  ${state}\n  ${item.description}\n`,
        );
      }
      const prompt = (await radar.agent()).systemPrompt();
      const usable = skills.filter((item) => !item.missing.length);
      const shown = usable.filter((item) => prompt.includes(`\n- ${item.name}: `)).length;
      io.stdout(
        `\n${shown} of ${usable.length} usable skill(s) listed in the system prompt ` +
          `(${prompt.length} chars)` +
          (shown < usable.length
            ? `; the rest do not fit its 500-token budget (use_skill without a name lists them)`
            : "") +
          ".\n",
      );
    });
  skill.command("show").argument("<name>").description("print a skill's instructions and files")
    .action(async (name: string) => {
      const radar = await context.radar();
      const found = radar.skillCatalog.discover().skills.find((item) => item.name === name);
      if (!found) throw new UsageError(`No skill named "${name}" (radar skill list shows them)`);
      const loaded = loadSkill(found);
      if (!loaded) throw new UsageError(`Cannot read ${found.dir}/SKILL.md`);
      const { io } = context;
      io.stdout(`${found.name} (${found.source}: ${found.dir})\n${found.description}\n`);
      if (found.missing.length) io.stdout(`Hidden here: needs ${found.missing.join(", ")}\n`);
      io.stdout(`\n${loaded.body}\n`);
      if (loaded.resources.length) {
        io.stdout(`\nFiles:\n${loaded.resources.map((path) => `  ${path}\n`).join("")}`);
      }
    });
}
