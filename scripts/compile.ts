/**
 * `deno task compile [TARGET…]`: builds the single `radar` executable for each target with the
 * same permission flags as `deno task radar` and every file the binary loads at run time.
 */
import { flagsOfTask } from "./task_flags.ts";

/** Targets the binary is shipped for. */
export const targets = [
  "aarch64-apple-darwin",
  "x86_64-apple-darwin",
  "x86_64-unknown-linux-gnu",
] as const;

/** Files and folders loaded at run time that must be embedded in the binary. */
export const includes = [
  // Every module: commands load theirs with importLazily (a run-time URL Deno does not analyse),
  // the plugin host and worker bootstrap start as separate modules. Deno analyses the modules
  // of an included folder, so their npm packages are embedded too.
  "src/",
  "web/", // the dashboard (imported lazily by `serve`), vendored htmx and the stylesheet
  "plugins/", // example plugins and the plugin SDK
  "skills/", // bundled Agent Skills
];

/** The `deno compile` arguments for one target. */
export function compileArguments(target: string, flags: string[]): string[] {
  return [
    "compile",
    ...flags,
    // Only npm packages the embedded modules import (not playwright-core, a test dependency).
    "--exclude-unused-npm",
    ...includes.flatMap((path) => ["--include", path]),
    "--target",
    target,
    "--output",
    `dist/radar-${target}`,
    "main.ts",
  ];
}

if (import.meta.main) {
  const deno = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  const flags = flagsOfTask(deno.tasks.radar);
  const chosen = Deno.args.length ? Deno.args : [...targets];
  for (const target of chosen) {
    if (!(targets as readonly string[]).includes(target)) {
      console.error(`compile: unknown target ${target}; known: ${targets.join(", ")}`);
      Deno.exit(2);
    }
    const args = compileArguments(target, flags);
    console.error(`deno ${args.join(" ")}`);
    const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
    if (code !== 0) Deno.exit(code);
  }
}
