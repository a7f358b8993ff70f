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

Deno.test("the binary embeds every module Radar loads at run time (each command, openRadar, the dashboard)", () => {
  const args = compileArguments(targets[0], flagsOfTask(deno.tasks.radar));
  const embedded = args.flatMap((arg, index) => args[index - 1] === "--include" ? [arg] : []);
  for (
    const path of [
      "src/cli/program.ts",
      "src/cli/commands/ask.ts",
      "src/cli/commands/serve.ts",
      "src/runtime/open_radar.ts",
      "web/server.ts",
      "web/app.tsx",
      "src/sources/email/imap_mail_reader.ts",
    ]
  ) assert.ok(embedded.includes(path), path);
  for (const path of embedded) {
    const info = Deno.statSync(new URL(`../../${path}`, import.meta.url));
    assert.ok(info.isDirectory || info.isFile, path);
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

Deno.test("the binary embeds the worker bootstrap, every subprocess entry and the static files", () => {
  for (
    const path of [
      "src/sandbox/bootstrap.ts",
      "src/sandbox/host_process.ts",
      "src/adapters/pdf/pdf_extract_process.ts",
      "src/adapters/network/html_query_process.ts",
      "web/static/",
    ]
  ) assert.ok(includes.includes(path), path);
});
