import assert from "node:assert/strict";
import { join } from "node:path";
import { SkillCatalog } from "../../src/skills/skill_catalog.ts";
import { readResource, skillLibrary } from "../../src/skills/skill_files.ts";
import { type SkillRoot, skillRoots } from "../../src/skills/skill_roots.ts";
import { useSkillTool } from "../../src/tools/use_skill.ts";
import { skillsBlock } from "../../src/core/system_prompt.ts";
import { buildSystemPrompt } from "../../src/core/system_prompt.ts";
import { estimateTokens } from "../../src/core/context_fit.ts";
import { defaultConfig } from "../../src/config/schema.ts";

function writeSkill(
  root: string,
  folder: string,
  frontMatter: string,
  body = "1. Do it.\n",
): string {
  const dir = join(root, folder);
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(dir, "SKILL.md"), `---\n${frontMatter}\n---\n${body}`);
  return dir;
}

function withRoot(test: (root: string) => void | Promise<void>) {
  return async () => {
    const root = Deno.makeTempDirSync({ prefix: "radar-skills-" });
    try {
      await test(root);
    } finally {
      Deno.removeSync(root, { recursive: true });
    }
  };
}

const context = {
  conversationId: 1,
  kind: "chat" as const,
  interactive: false,
  signal: new AbortController().signal,
};

Deno.test(
  "discovery: valid skills found, bad files skipped with one line each",
  withRoot((root) => {
    writeSkill(root, "tea-time", "name: tea-time\ndescription: Make tea.");
    writeSkill(root, "wrong-name", "name: other\ndescription: x");
    writeSkill(root, "no-desc", "name: no-desc");
    writeSkill(root, "bad-yaml", "name: [unclosed\ndescription: x");
    Deno.mkdirSync(join(root, "plain"));
    Deno.writeTextFileSync(join(root, "plain", "SKILL.md"), "no front matter");
    const roots: SkillRoot[] = [{ path: root, source: "data" }];
    const warned: string[][] = [];
    const catalog = new SkillCatalog(() => roots, { PATH: "/usr/bin:/bin" }, (w) => warned.push(w));
    const { skills, warnings } = catalog.discover();
    assert.deepEqual(skills.map((skill) => skill.name), ["tea-time"]);
    assert.equal(warnings.length, 4);
    for (const warning of warnings) assert.ok(!warning.includes("\n"), warning);
    assert.ok(
      warnings.some((w) => /wrong-name\/SKILL\.md: name "other" must match its folder/.test(w)),
    );
    assert.ok(warnings.some((w) => /no-desc\/SKILL\.md: description:/.test(w)));
    assert.ok(warnings.some((w) => /plain\/SKILL\.md: no front matter/.test(w)));
    catalog.discover();
    assert.equal(warned.length, 1, "cached: warned once while nothing changed");
  }),
);

Deno.test(
  "gating hides skills whose programs or variables are missing; edits invalidate the cache",
  withRoot((root) => {
    writeSkill(root, "has-sh", "name: has-sh\ndescription: x\nrequires:\n  bins: [sh]");
    writeSkill(
      root,
      "needs-tool",
      "name: needs-tool\ndescription: x\nrequires:\n  bins: [radar-no-such-program]",
    );
    writeSkill(
      root,
      "needs-key",
      "name: needs-key\ndescription: x\nrequires:\n  env: [RADAR_TEST_KEY]",
    );
    const catalog = new SkillCatalog(() => [{ path: root, source: "config" }], {
      PATH: "/usr/bin:/bin",
    });
    assert.deepEqual(catalog.available().map((skill) => skill.name), ["has-sh"]);
    const hidden = catalog.discover().skills.find((skill) => skill.name === "needs-tool");
    assert.deepEqual(hidden?.missing, ["program radar-no-such-program"]);
    writeSkill(root, "late", "name: late\ndescription: Added later, longer text.");
    assert.ok(catalog.available().some((skill) => skill.name === "late"), "new skill seen");
  }),
);

Deno.test(
  "use_skill returns the body and resources; never reads outside the skill (.., links)",
  withRoot(async (root) => {
    const dir = writeSkill(root, "filing", "name: filing\ndescription: File things.", "1. Sort.\n");
    Deno.mkdirSync(join(dir, "scripts"));
    Deno.mkdirSync(join(dir, "references"));
    Deno.writeTextFileSync(join(dir, "scripts", "sort.sh"), "echo sort\n");
    Deno.writeTextFileSync(join(dir, "references", "rules.md"), "Rule one.\n");
    Deno.writeTextFileSync(join(root, "secret.txt"), "SECRET\n");
    Deno.symlinkSync(join(root, "secret.txt"), join(dir, "references", "leak.md"));
    Deno.symlinkSync(root, join(dir, "assets"));
    const catalog = new SkillCatalog(() => [{ path: root, source: "data" }], {});
    const tool = useSkillTool({ skills: skillLibrary(catalog) });
    const shown = await tool.run(
      tool.parse({ name: "filing" }).ok ? { name: "filing" } : {},
      context,
    );
    const text = typeof shown === "string" ? shown : shown.text;
    assert.match(text, /1\. Sort\./);
    assert.match(text, /- references\/rules\.md/);
    assert.match(text, /- scripts\/sort\.sh/);
    assert.match(text, /exec tool/);
    assert.ok(!text.includes("leak.md") && !text.includes("secret"), "links out are not listed");
    assert.deepEqual(readResource(dir, "references/rules.md"), { text: "Rule one.\n" });
    for (
      const bad of [
        "references/leak.md",
        "../secret.txt",
        "references/../../secret.txt",
        "/etc/passwd",
        "SKILL.md",
        "assets/secret.txt",
      ]
    ) {
      const read = readResource(dir, bad);
      assert.ok("error" in read, `${bad} must be refused`);
    }
    const missing = await tool.run({ name: "../filing" }, context);
    assert.equal(typeof missing === "string" ? "" : missing.outcome, "error");
    // One parameter carries both: "skill/file" reads a file of the skill, through the same guard.
    assert.ok(tool.parse({ name: "filing/references/rules.md" }).ok);
    assert.equal(await tool.run({ name: "filing/references/rules.md" }, context), "Rule one.\n");
    assert.match(text, /use_skill name "filing\/FILE"/);
    for (const bad of ["filing/../secret.txt", "filing/references/leak.md", "/etc/passwd", "/"]) {
      const refused = await tool.run({ name: bad }, context);
      assert.equal(typeof refused === "string" ? bad : refused.outcome, "error", bad);
    }
    const list = await tool.run({}, context);
    assert.match(typeof list === "string" ? list : list.text, /- filing: File things\./);
  }),
);

Deno.test("the bundled skills are valid, found through an import.meta path, and fit the prompt", () => {
  const roots = skillRoots(defaultConfig(), "/nonexistent", {});
  const catalog = new SkillCatalog(() => roots, {});
  const { skills, warnings } = catalog.discover();
  assert.deepEqual(warnings, []);
  assert.deepEqual(skills.map((skill) => skill.name), [
    "comic-filing",
    "inbox-triage",
    "morning-briefing",
    "pdf-filing",
    "weekly-review",
  ]);
  const config = defaultConfig();
  const input = {
    name: config.radar.name,
    personality: config.radar.personality,
    personalityNotes: [],
    now: new Date("2026-11-22T09:15:00Z"),
    timeZone: "UTC",
    skills,
  };
  const prompt = buildSystemPrompt(input);
  assert.match(prompt, /<available_skills>\n- comic-filing: /);
  // Short, concrete descriptions for small models: the block is paid on every request.
  for (const skill of skills) assert.ok(skill.description.length <= 50, skill.description);
  const block = prompt.slice(prompt.indexOf("<available_skills>"), prompt.indexOf("use_skill"));
  assert.ok(block.length <= 300, `the skills block is ${block.length} characters`);
  assert.ok(estimateTokens(prompt) < 500, `~${estimateTokens(prompt)} tokens`);
  assert.equal(
    buildSystemPrompt({ ...input, skills: [...skills].reverse() }),
    prompt,
    "byte-stable",
  );
  assert.ok(!prompt.slice(prompt.indexOf("<available_skills>")).includes("1."), "no bodies");
});

Deno.test("skills that do not fit the prompt's room are counted, and the prompt stays in budget", () => {
  const many = Array.from({ length: 40 }, (_, index) => ({
    name: `skill-${String(index).padStart(2, "0")}`,
    description: "A long description of what this skill does and when to use it. ".repeat(3),
  }));
  const block = skillsBlock(many, 600);
  assert.ok(block.text.length <= 600 && block.omitted > 0);
  assert.match(block.text, /more: call use_skill without a name/);
  const config = defaultConfig();
  let omitted = 0;
  const prompt = buildSystemPrompt({
    name: config.radar.name,
    personality: config.radar.personality,
    personalityNotes: Array.from({ length: 5 }, () => "A note. ".repeat(30)),
    now: new Date(),
    timeZone: "UTC",
    skills: many,
    onSkillsOmitted: (count) => omitted = count,
  });
  assert.ok(estimateTokens(prompt) < 500, `~${estimateTokens(prompt)} tokens`);
  assert.ok(omitted > 0);
});

Deno.test(
  "a loaded skill's allowed-tools join the offer (how a filing skill brings comic_info)",
  withRoot(async (root) => {
    writeSkill(
      root,
      "comic-filing",
      "name: comic-filing\ndescription: File comics.\nallowed-tools: comic_info move_file",
      "1. Read it.\n",
    );
    writeSkill(
      root,
      "odd",
      "name: odd\ndescription: Odd.\nallowed-tools: [ok_tool, 'Bad Name', 3]",
    );
    const catalog = new SkillCatalog(() => [{ path: root, source: "data" }], {});
    const tool = useSkillTool({ skills: skillLibrary(catalog) });
    const loaded = await tool.run({ name: "comic-filing" }, context);
    assert.deepEqual(typeof loaded === "string" ? [] : loaded.offerTools, [
      "comic_info",
      "move_file",
    ]);
    const odd = await tool.run({ name: "odd" }, context);
    assert.deepEqual(typeof odd === "string" ? [] : odd.offerTools, ["ok_tool"]);
  }),
);
