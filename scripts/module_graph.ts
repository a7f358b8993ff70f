/**
 * The module graph Deno resolves for an entry (`deno info --json`), and what it reaches through
 * static value imports only: what a process loads before its first line runs. Shared by the
 * start-up graph tests and `deno task bench lean`.
 */

/** One dependency edge as `deno info --json` prints it. */
export interface GraphDependency {
  specifier?: string;
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}

/** One module of the graph. */
export interface GraphModule {
  specifier: string;
  kind?: string;
  size?: number;
  dependencies?: GraphDependency[];
  error?: string;
}

/** The JSON of `deno info --json ENTRY`. */
export interface ModuleGraph {
  roots: string[];
  modules: GraphModule[];
  redirects: Record<string, string>;
}

/** `deno info --json [flags] entry`, run in `cwd` (the project folder). */
export async function moduleGraph(
  entry: string,
  cwd: string | URL,
  flags: string[] = [],
): Promise<ModuleGraph> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", ...flags, entry],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno info ${entry}: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/**
 * Every specifier reached from `from` (the graph's roots unless given) through imports that are
 * not dynamic; type-only imports count only when `withTypes`.
 */
export function staticallyReached(
  graph: ModuleGraph,
  from: string[] = graph.roots,
  withTypes = false,
): Set<string> {
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>(from);
  const queue = [...from];
  while (queue.length) {
    const specifier = queue.shift()!;
    const module = modules.get(graph.redirects[specifier] ?? specifier);
    for (const dependency of module?.dependencies ?? []) {
      if (dependency.isDynamic) continue;
      const targets = [dependency.code?.specifier, withTypes ? dependency.type?.specifier : ""];
      for (const target of targets) {
        if (!target || reached.has(target)) continue;
        reached.add(target);
        queue.push(target);
      }
    }
  }
  return reached;
}

/** The byte size of each reached local module (`file:` specifiers), from the graph. */
export function localModuleSizes(graph: ModuleGraph, reached: Set<string>): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const module of graph.modules) {
    if (reached.has(module.specifier) && module.specifier.startsWith("file:")) {
      sizes.set(module.specifier, module.size ?? 0);
    }
  }
  return sizes;
}
