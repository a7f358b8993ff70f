/**
 * `radar ask "hello"` must start fast. The module graphs it loads — main.ts, the CLI and the agent
 * session (the start path of `ask` and `chat`) — reach no npm package, none of the heavy layers
 * (daemon, plugins, sandbox, tools, web, runtime, config loader) and no Node compatibility module
 * but node:sqlite (node:path alone costs 9–13 ms to load, node:fs ~30 ms). Dynamic imports count
 * too: Deno analyses every `import("./literal.ts")` of a graph when it loads it, run or not, so
 * heavy modules are imported with `importLazily` (src/runtime/lazy_import.ts) where needed.
 */
import assert from "node:assert/strict";
import { fromFileUrl } from "../project/file_url.ts";

const root = new URL("../../", import.meta.url);
const entries = [
  "main.ts",
  "src/cli/program.ts",
  "src/cli/commands/ask.ts",
  "src/cli/commands/chat.ts",
  "src/runtime/agent_session.ts",
];

/** Node modules the start-up graph may load (the database is needed before the first request). */
const allowedNodeModules = ["node:sqlite"];

/** Folders the start-up graph must not reach (paths relative to the project root). */
const forbiddenFolders = [
  "src/daemon/",
  "src/plugins/",
  "src/sandbox/",
  "src/tools/",
  "web/",
];

/** Constants main.ts needs to pick its mode (tiny, no imports of their own). */
const allowedFiles = ["src/sandbox/host_flag.ts", "src/adapters/pdf/pdf_flag.ts"];

/** Files the start-up graph must not reach. */
const forbiddenFiles = ["src/runtime/runtime.ts", "src/config/loader.ts", "src/config/schema.ts"];

interface GraphDependency {
  code?: { specifier: string };
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
 * Every module reached from the root through imports, static or dynamic (type-only imports are
 * not followed), each with the module that first imported it (breadth first, so the recorded
 * chains are the shortest).
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
      if (!dependency.code) continue;
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
  if (specifier.startsWith("node:")) {
    return allowedNodeModules.includes(specifier) ? undefined : "a Node compatibility module";
  }
  if (!specifier.startsWith("file:")) return "an npm package";
  const path = projectPath(specifier);
  if (allowedFiles.includes(path)) return undefined;
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

for (const entry of entries) {
  Deno.test(`${entry}: the graph Deno loads has no npm package and no heavy layer`, () => {
    const importers = staticImporters(moduleGraph(new URL(entry, root)));
    assert.ok(importers.size > 1, `the graph of ${entry} has its imports`);
    const problems = [...importers.keys()].flatMap((specifier) => {
      const problem = problemOf(specifier);
      return problem ? [`${problem}: ${importChain(specifier, importers)}`] : [];
    });
    assert.deepEqual(
      problems,
      [],
      `${entry} reaches modules it must import with \`importLazily\` where they are ` +
        `needed:\n  ${problems.join("\n  ")}`,
    );
  });
}
