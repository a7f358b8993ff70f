/**
 * The bundled files' front matter checked ahead (src/config/bundled_front_matter.ts): current, and
 * exactly what each reader's schema gives for what npm yaml parses; text that differs is parsed
 * and checked as before.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { z } from "zod";
import {
  bundledPersonalityFrontMatter,
  bundledSkillFrontMatter,
} from "../../src/config/bundled_front_matter.ts";
import { readFrontMatter, splitFrontMatter } from "../../src/config/front_matter.ts";
import { skillFrontMatter } from "../../src/skills/skill_catalog.ts";
import { personalityFrontMatter } from "../../src/personalities/personality_file.ts";
import {
  bundledFrontMatterModule,
  bundledFrontMatterPath,
  bundledPersonalityFiles,
  bundledSkillFiles,
} from "../../scripts/bundled_front_matter.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

Deno.test("src/config/bundled_front_matter.ts is what the bundled files give (not stale)", async () => {
  const committed = Deno.readTextFileSync(join(root, bundledFrontMatterPath));
  assert.ok(
    committed === await bundledFrontMatterModule(root),
    `${bundledFrontMatterPath} is stale: run \`deno task docs\` and commit the result`,
  );
});

Deno.test("bundled front matter reads as its reader's schema checks it: the default personality and every skill", () => {
  const readers: {
    files: string[];
    schema: () => z.ZodType;
    table: ReadonlyMap<string, unknown>;
  }[] = [
    { files: bundledSkillFiles(root), schema: skillFrontMatter, table: bundledSkillFrontMatter },
    {
      files: bundledPersonalityFiles(root),
      schema: personalityFrontMatter,
      table: bundledPersonalityFrontMatter,
    },
  ];
  assert.ok(readers[1].files.includes("personalities/default.md"));
  for (const { files, schema, table } of readers) {
    assert.ok(files.length);
    for (const file of files) {
      const text = Deno.readTextFileSync(join(root, file));
      assert.ok(table.has(splitFrontMatter(text)!.yaml), `${file} is in the table`);
      const ahead = readFrontMatter(text, schema, file, { checkedAhead: table });
      const checked = readFrontMatter(text, schema, file);
      assert.ok(ahead.ok && checked.ok, file);
      assert.deepStrictEqual(ahead, checked, file);
    }
  }
});

Deno.test("front matter that differs from a bundled file's by one character is parsed and checked, not looked up", () => {
  const text = Deno.readTextFileSync(join(root, "personalities/default.md"));
  const options = { checkedAhead: bundledPersonalityFrontMatter };
  const edited = readFrontMatter(
    text.replace("name: default", "name: defaulT"),
    personalityFrontMatter,
    "edited.md",
    options,
  );
  assert.ok(edited.ok);
  assert.equal(edited.data.name, "defaulT");
  // Checked too: a key the schema does not know is refused.
  const unknown = readFrontMatter(
    text.replace("name: default", "name: default\ncolour: red"),
    personalityFrontMatter,
    "edited.md",
    options,
  );
  assert.ok(!unknown.ok && unknown.problem.includes("colour"), JSON.stringify(unknown));
  // And a caller changing what it got does not change the table.
  const first = readFrontMatter(text, personalityFrontMatter, "default.md", options);
  assert.ok(first.ok);
  first.data.name = "changed";
  const again = readFrontMatter(text, personalityFrontMatter, "default.md", options);
  assert.ok(again.ok);
  assert.equal(again.data.name, "default");
});
