/**
 * The documentation points at things that exist: every path ARCHITECTURE.md names, every relative
 * link (and `#anchor`) in README.md, ARCHITECTURE.md and docs/*.md; README stays a short front
 * page that links to every page in docs/.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fromFileUrl } from "./file_url.ts";
import { codeSpans, headingAnchors, pathExists, relativeLinks } from "./markdown_paths.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** Folders and files at the top of the repository: a code span starting so names a path. */
const topFolders = [
  "src/",
  "web/",
  "tests/",
  "scripts/",
  "bench/",
  "plugins/",
  "skills/",
  "personalities/",
  "docs/",
  ".github/",
  ".ci/",
];
const topFiles = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "install.sh",
  "radar.yaml",
  "README.md",
  "ARCHITECTURE.md",
];

function read(path: string): string {
  return Deno.readTextFileSync(join(root, path));
}

function documents(): string[] {
  const pages = existsSync(join(root, "docs"))
    ? readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort()
      .map((name) => `docs/${name}`)
    : [];
  return ["README.md", "ARCHITECTURE.md", ...pages];
}

/** Basenames of every source file, for code spans that name a file without its folder. */
function sourceFileNames(): Set<string> {
  const names = new Set<string>(["main.ts"]);
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder))) {
      const path = join(folder, entry);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else names.add(entry);
    }
  };
  for (const folder of ["src", "web", "scripts", "tests", "bench", "plugins"]) walk(folder);
  return names;
}

function failures(lines: string[]): string {
  return `\n${lines.join("\n")}\n`;
}

Deno.test("every path ARCHITECTURE.md names exists", () => {
  const missing = codeSpans(read("ARCHITECTURE.md"))
    .filter(({ text }) =>
      !/\s/.test(text) &&
      (topFiles.includes(text) || topFolders.some((folder) => text.startsWith(folder)))
    )
    .filter(({ text }) => !pathExists(root, text))
    .map(({ text, line }) => `ARCHITECTURE.md:${line} names ${text}, which does not exist`);
  assert.ok(missing.length === 0, failures(missing));
});

Deno.test("every file ARCHITECTURE.md names without its folder exists somewhere in the source", () => {
  const names = sourceFileNames();
  const missing = codeSpans(read("ARCHITECTURE.md"))
    .filter(({ text }) => /^[\w.-]+\.tsx?$/.test(text) && !names.has(text))
    .map(({ text, line }) =>
      `ARCHITECTURE.md:${line} names ${text}, and no file of that name is in the source`
    );
  assert.ok(missing.length === 0, failures(missing));
});

Deno.test("every relative link in README.md, ARCHITECTURE.md and docs/*.md resolves, #anchors included", () => {
  const broken: string[] = [];
  for (const document of documents()) {
    for (const { text, line } of relativeLinks(read(document))) {
      const [pathPart, anchor] = text.split("#", 2);
      const target = pathPart
        ? normalize(join(dirname(document), decodeURIComponent(pathPart)))
        : document;
      const where = `${document}:${line} links to ${text}`;
      if (!existsSync(join(root, target))) {
        broken.push(`${where}, but ${relative(".", target)} does not exist`);
      } else if (anchor && target.endsWith(".md") && !headingAnchors(read(target)).has(anchor)) {
        broken.push(`${where}, but ${target} has no heading with the anchor #${anchor}`);
      }
    }
  }
  assert.ok(broken.length === 0, failures(broken));
});

Deno.test("README.md is a front page: at most 400 lines, linking to every page in docs/", () => {
  const readme = read("README.md");
  const lines = readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0);
  assert.ok(lines <= 400, `README.md has ${lines} lines; move detail into a page in docs/`);
  const linked = new Set(
    relativeLinks(readme).map(({ text }) => normalize(decodeURIComponent(text.split("#")[0]))),
  );
  const unlinked = documents().filter((path) => path.startsWith("docs/") && !linked.has(path));
  assert.deepEqual(
    unlinked,
    [],
    "pages README.md does not link to (one line each under its next steps)",
  );
});
