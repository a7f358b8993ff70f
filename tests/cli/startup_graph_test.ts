/**
 * `radar ask "hello"` must start fast: the CLI's static module graph loads no npm package and
 * none of the heavy layers (daemon, plugins, sandbox, tools, web, runtime, config loader). Those
 * are imported with `await import()` inside the commands that need them.
 */
import assert from "node:assert/strict";
import { fromFileUrl } from "../project/file_url.ts";

const root = new URL("../../", import.meta.url);
const entry = new URL("src/cli/program.ts", root);

/** Folders the start-up graph must not reach (paths relative to the project root). */
const forbiddenFolders = [
  "src/daemon/",
  "src/plugins/",
  "src/sandbox/",
  "src/tools/",
  "web/",
];

/** Files the start-up graph must not reach. */
const forbiddenFiles = ["src/runtime/runtime.ts", "src/config/loader.ts", "src/config/schema.ts"];

interface GraphDependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface GraphModule {
  specifier: string;
  dependencies?: GraphDependency[];
}

interface ModuleGraph {
  roots: string[];
  modules: GraphModule[];
  redirects: Record<string, string>;
}

/** The module graph of `entry` as `deno info --json` reports it. */
function moduleGraph(entry: URL): ModuleGraph {
  const output = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fromFileUrl(entry)],
    cwd: fromFileUrl(root),
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const decoder = new TextDecoder();
  assert.ok(output.success, `deno info failed: ${decoder.decode(output.stderr)}`);
  return JSON.parse(decoder.decode(output.stdout));
}

/**
 * Every module reached from the root through static imports (dynamic imports and type-only
 * imports are not followed), each with the module that first imported it (breadth first, so the
 * recorded chains are the shortest).
 */
function staticImporters(graph: ModuleGraph): Map<string, string | undefined> {
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const resolve = (specifier: string) => graph.redirects[specifier] ?? specifier;
  const root = resolve(graph.roots[0]);
  const importers = new Map<string, string | undefined>([[root, undefined]]);
  const queue = [root];
  while (queue.length) {
    const specifier = queue.shift()!;
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic || !dependency.code) continue;
      const target = resolve(dependency.code.specifier);
      if (importers.has(target)) continue;
      importers.set(target, specifier);
      queue.push(target);
    }
  }
  return importers;
}

/** A specifier as a path relative to the project root, when it is a project file. */
function projectPath(specifier: string): string {
  return specifier.startsWith(root.href) ? specifier.slice(root.href.length) : specifier;
}

/** Why a module must not be in the start-up graph, or undefined when it may. */
function problemOf(specifier: string): string | undefined {
  if (!specifier.startsWith("file:") && !specifier.startsWith("node:")) return "an npm package";
  const path = projectPath(specifier);
  const folder = forbiddenFolders.find((prefix) => path.startsWith(prefix));
  if (folder) return `under ${folder}`;
  if (forbiddenFiles.includes(path)) return "a heavy module";
  return undefined;
}

/** `offender ← importer ← … ← src/cli/program.ts`. */
function importChain(specifier: string, importers: Map<string, string | undefined>): string {
  const chain = [projectPath(specifier)];
  for (let at = importers.get(specifier); at !== undefined; at = importers.get(at)) {
    chain.push(projectPath(at));
  }
  return chain.join(" ← ");
}

Deno.test("the CLI's static import graph loads no npm package and no heavy layer", () => {
  const importers = staticImporters(moduleGraph(entry));
  assert.ok(importers.size > 1, "the graph of src/cli/program.ts has its imports");
  const problems = [...importers.keys()].flatMap((specifier) => {
    const problem = problemOf(specifier);
    return problem ? [`${problem}: ${importChain(specifier, importers)}`] : [];
  });
  assert.deepEqual(
    problems,
    [],
    "src/cli/program.ts statically reaches modules it must import with `await import()` " +
      `inside the command that needs them:\n  ${problems.join("\n  ")}`,
  );
});
