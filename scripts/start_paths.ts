/**
 * The start-up paths of a Radar process, each as the modules it loads before it does its work:
 * main.ts's CLI stage, then the command's own file, then what it opens (each loaded at run time),
 * and the graph `deno compile` embeds. Shared by tests/project/startup_graph_test.ts (what each
 * path may load) and `deno task bench lean` (start-up time per module group).
 */
import { fileURLToPath } from "node:url";
import { type ModuleGraph, moduleGraph, staticallyReached } from "./module_graph.ts";
import { runTimeImports } from "./run_time_imports.ts";

const root = new URL("../", import.meta.url);

/** A checkout path as a file URL. */
export const localUrl = (path: string) => new URL(path, root).href;

/** The modules main.ts loads for every CLI command (at run time, in its CLI branch). */
const cliStage = [
  "main.ts",
  "src/cli/program.ts",
  "src/cli/terminal_io.ts",
  "src/adapters/inspector_signal.ts",
];

/** What each path loads as it starts: the CLI stage, the command's file, what it opens. */
export const startPaths: Record<string, string[]> = {
  "radar --version": cliStage,
  "radar ask": [
    ...cliStage,
    "src/cli/commands/ask.ts",
    // The config loader and its schema load only when the remembered config does not match.
    "src/config/config_file.ts",
    "src/runtime/open_radar.ts",
    // The parts a run loads on first use: the personalities and the agent stack, memory search
    // (the plugin system only when a plugin is enabled: src/runtime/plugins_for_run.ts).
    "src/runtime/agent_stack.ts",
    "src/runtime/embedding_parts.ts",
  ],
  "radar serve": [
    ...cliStage,
    "src/cli/commands/serve.ts",
    // The config loader and its schema load only when the remembered config does not match, or
    // with the config file's first change (src/daemon/config_watch.ts).
    "src/config/config_file.ts",
    "src/runtime/open_radar.ts",
    "web/server.ts",
  ],
};

let graph: Promise<ModuleGraph> | undefined;
/**
 * The graph `deno compile` embeds: main.ts and every module loaded at run time (each a root),
 * with their static and literal dynamic imports; asked once per process.
 */
export function embeddedGraph(): Promise<ModuleGraph> {
  return graph ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "radar-graph-" });
    try {
      const roots = ["main.ts", ...runTimeImports(fileURLToPath(root))];
      const entry = `${dir}/embedded.ts`;
      await Deno.writeTextFile(
        entry,
        roots.map((path) => `import ${JSON.stringify(localUrl(path))};\n`).join(""),
      );
      return await moduleGraph(entry, root, [
        "--config",
        fileURLToPath(new URL("deno.json", root)),
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
}

/** Every specifier a start-up path loads (static imports from its modules). */
export async function loadedBy(path: string): Promise<string[]> {
  return [...staticallyReached(await embeddedGraph(), startPaths[path].map(localUrl))];
}
