/**
 * `deno task compile [--dry-run] [TARGET…]`: builds the single `radar` executable for each target with the
 * same permission flags as `deno task radar` and every file the binary loads at run time.
 */
import { fileURLToPath } from "node:url";
import { flagsOfTask } from "./task_flags.ts";
import { runTimeImports } from "./run_time_imports.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Targets the binary is shipped for. */
export const targets = [
  "aarch64-apple-darwin",
  "x86_64-apple-darwin",
  "x86_64-unknown-linux-gnu",
] as const;

/**
 * Files the binary loads at run time that main.ts does not import: the worker the plugin host
 * starts by URL, the dashboard's static files (read from disk), the example plugins, bundled
 * skills and the bundled default personality. The plugin-host, PDF and HTML-query entries are
 * named too: `deno run` starts them as their own modules. Every module Radar loads at run time
 * (`import(new URL(…))`: the modes, each command, openRadar, the dashboard, mail, calendar,
 * parsers; scripts/run_time_imports.ts) is added to these by `compileArguments`; npm packages
 * imported with a literal `import("…")` are embedded through the modules that import them.
 */
export const includes = [
  "src/sandbox/bootstrap.ts",
  "src/sandbox/host_process.ts",
  "src/adapters/pdf/pdf_extract_process.ts",
  "src/adapters/network/html_query_process.ts",
  "web/static/",
  "plugins/",
  "skills/",
  "personalities/",
];

/** The `deno compile` arguments for one target. */
export function compileArguments(target: string, flags: string[]): string[] {
  return [
    "compile",
    ...flags,
    // Only npm packages the embedded modules import (playwright-core by the browser's import()).
    "--exclude-unused-npm",
    ...[...new Set([...includes, ...runTimeImports(root)])].flatMap((path) => ["--include", path]),
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
  // --dry-run prints the commands only (the release workflow's test runs it where no runtime
  // download is possible).
  const dryRun = Deno.args.includes("--dry-run");
  const named = Deno.args.filter((arg) => arg !== "--dry-run");
  const chosen = named.length ? named : [...targets];
  for (const target of chosen) {
    if (!(targets as readonly string[]).includes(target)) {
      console.error(`compile: unknown target ${target}; known: ${targets.join(", ")}`);
      Deno.exit(2);
    }
    const args = compileArguments(target, flags);
    console.error(`deno ${args.join(" ")}`);
    if (dryRun) continue;
    const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
    if (code !== 0) Deno.exit(code);
  }
}
