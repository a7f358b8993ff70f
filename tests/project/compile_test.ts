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
