/**
 * The bundled files' front matter parsed ahead (src/config/bundled_front_matter.ts): current, and
 * read exactly as npm yaml parses it; text that differs is parsed as before.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { bundledFrontMatter } from "../../src/config/bundled_front_matter.ts";
import { readFrontMatter, splitFrontMatter } from "../../src/config/front_matter.ts";
import {
  bundledFrontMatterModule,
  bundledFrontMatterPath,
} from "../../scripts/bundled_front_matter.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const anything = z.record(z.string(), z.unknown());

Deno.test("src/config/bundled_front_matter.ts is what the bundled files give (not stale)", async () => {
  const committed = Deno.readTextFileSync(join(root, bundledFrontMatterPath));
  assert.ok(
    committed === await bundledFrontMatterModule(root),
    `${bundledFrontMatterPath} is stale: run \`deno task docs\` and commit the result`,
  );
});

Deno.test("bundled front matter reads as yaml parses it: the default personality and every skill", () => {
  const files = [
    "personalities/default.md",
    ...[...Deno.readDirSync(join(root, "skills"))].filter((entry) => entry.isDirectory)
      .map((entry) => `skills/${entry.name}/SKILL.md`),
  ];
  for (const file of files) {
    const text = Deno.readTextFileSync(join(root, file));
    const yaml = splitFrontMatter(text)!.yaml;
    assert.ok(bundledFrontMatter.has(yaml), `${file} is in the table`);
    const read = readFrontMatter(text, anything, file);
    assert.ok(read.ok);
    assert.deepStrictEqual(read.data, parse(yaml), file);
  }
});

Deno.test("front matter that differs from a bundled file's by one character is parsed, not looked up", () => {
  const text = Deno.readTextFileSync(join(root, "personalities/default.md"));
  const edited = text.replace("name: default", "name: defaulT");
  const read = readFrontMatter(edited, anything, "edited.md");
  assert.ok(read.ok);
  assert.equal(read.data.name, "defaulT");
  // And a caller changing what it got does not change the table.
  const first = readFrontMatter(text, anything, "default.md");
  assert.ok(first.ok);
  first.data.name = "changed";
  const again = readFrontMatter(text, anything, "default.md");
  assert.ok(again.ok);
  assert.equal(again.data.name, "default");
});
