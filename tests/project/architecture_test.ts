import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fromFileUrl } from "./file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory && entry.name !== "fixtures") walk(path);
      else if (/\.tsx?$/.test(entry.name)) found.push(path);
    }
  };
  walk(join(root, folder));
  return found;
}

function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(file);
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)]
    .map((match) => match[1]);
  const dynamic = [...text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]);
  return [...specifiers, ...dynamic];
}

function resolvedFolder(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return relative(root, resolve(dirname(file), specifier));
}

Deno.test("src/core is pure: no Deno, fetch, node:, console, Date.now or randomUUID", () => {
  const forbidden = /\bDeno\.|\bfetch\(|\bconsole\.|\bDate\.now\(|randomUUID|new Date\(\)/;
  for (const file of sourceFiles("src/core")) {
    const text = Deno.readTextFileSync(file).replace(/\/\*\*[\s\S]*?\*\//g, "");
    assert.doesNotMatch(text, forbidden, relative(root, file));
    for (const specifier of importsOf(file)) {
      const target = resolvedFolder(file, specifier);
      if (target === undefined) {
        assert.equal(specifier, "zod", `${relative(root, file)} imports ${specifier}`);
      } else {
        assert.ok(target.startsWith("src/core"), `${relative(root, file)} imports ${specifier}`);
      }
    }
  }
});

Deno.test("src/tools depend on core ports and config only, never on concrete adapters", () => {
  for (const file of sourceFiles("src/tools")) {
    for (const specifier of importsOf(file)) {
      const target = resolvedFolder(file, specifier);
      if (target === undefined) continue;
      assert.ok(
        !target.startsWith("src/adapters") && !target.startsWith("src/runtime") &&
          !target.startsWith("src/cli"),
        `${relative(root, file)} imports ${specifier}`,
      );
    }
  }
});

Deno.test("src/core and src/adapters never import the CLI, the runtime or the web app", () => {
  for (const folder of ["src/core", "src/adapters", "src/config"]) {
    for (const file of sourceFiles(folder)) {
      for (const specifier of importsOf(file)) {
        const target = resolvedFolder(file, specifier) ?? "";
        assert.ok(
          !/^(src\/cli|src\/runtime|web)/.test(target),
          `${relative(root, file)} imports ${specifier}`,
        );
      }
    }
  }
});

Deno.test("no jsr: or remote imports anywhere (hostile fixtures aside)", () => {
  for (const folder of ["src", "web", "tests", "bench", "scripts"]) {
    for (const file of sourceFiles(folder)) {
      for (const specifier of importsOf(file)) {
        assert.doesNotMatch(specifier, /^(jsr:|https?:)/, `${relative(root, file)}: ${specifier}`);
      }
    }
  }
});
