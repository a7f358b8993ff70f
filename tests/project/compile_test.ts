import assert from "node:assert/strict";
import { compileArguments, includes, targets } from "../../scripts/compile.ts";
import { flagsOfTask } from "../../scripts/task_flags.ts";

const deno = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));

Deno.test("deno task compile uses exactly the flags of deno task radar", () => {
  const flags = flagsOfTask(deno.tasks.radar);
  assert.ok(flags.includes("--no-prompt"));
  assert.ok(flags.includes("--unstable-cron"));
  assert.ok(!flags.some((flag: string) => flag === "-A" || flag.startsWith("--allow-all")));
  for (const target of targets) {
    const args = compileArguments(target, flags);
    assert.deepEqual(args.slice(1, 1 + flags.length), flags);
    assert.equal(args.at(-1), "main.ts");
    assert.ok(args.includes(target));
    assert.ok(args.includes("--exclude-unused-npm"), "test-only npm packages stay out");
  }
});

Deno.test("every path the binary must embed exists", () => {
  for (const path of includes) {
    const info = Deno.statSync(new URL(`../../${path}`, import.meta.url));
    assert.ok(info.isDirectory || info.isFile, path);
  }
});

Deno.test("deno.json imports are npm: or node: only and pinned", () => {
  for (const [name, specifier] of Object.entries(deno.imports as Record<string, string>)) {
    assert.match(specifier, /^(npm:\/?[@\w./-]+@\d+\.\d+\.\d+\/?|node:)/, `${name} → ${specifier}`);
  }
});

/** Every `importLazily<typeof import("A")>(new URL("B", import.meta.url))` in the sources. */
function lazyImports(): Array<{ file: string; typed: string; loaded: string }> {
  const found: Array<{ file: string; typed: string; loaded: string }> = [];
  const pattern =
    /importLazily<\s*typeof import\("([^"]+)"\)\s*>\(\s*new URL\("([^"]+)", import\.meta\.url\)/g;
  const visit = (url: URL) => {
    for (const entry of Deno.readDirSync(url)) {
      const child = new URL(entry.name + (entry.isDirectory ? "/" : ""), url);
      if (entry.isDirectory) visit(child);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = Deno.readTextFileSync(child);
        for (const match of text.matchAll(pattern)) {
          found.push({ file: child.href, typed: match[1], loaded: match[2] });
        }
      }
    }
  };
  visit(new URL("../../src/", import.meta.url));
  visit(new URL("../../web/", import.meta.url));
  const main = new URL("../../main.ts", import.meta.url);
  for (const match of Deno.readTextFileSync(main).matchAll(pattern)) {
    found.push({ file: main.href, typed: match[1], loaded: match[2] });
  }
  return found;
}

Deno.test("every lazily imported module is the one its type names, exists and is embedded", () => {
  const root = new URL("../../", import.meta.url).href;
  const lazy = lazyImports();
  assert.ok(lazy.length >= 10, `found ${lazy.length} lazy imports`);
  for (const { file, typed, loaded } of lazy) {
    assert.equal(loaded, typed, `${file}: the URL and the type name different modules`);
    const target = new URL(loaded, file);
    assert.ok(Deno.statSync(target).isFile, `${file}: ${loaded} does not exist`);
    const relative = target.href.slice(root.length);
    assert.ok(
      relative === "main.ts" || includes.some((folder) => relative.startsWith(folder)),
      `${relative} is imported lazily but not embedded by deno task compile (scripts/compile.ts)`,
    );
  }
});
