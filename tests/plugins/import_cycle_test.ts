/**
 * The plugin layer has no import cycle (plugin_hooks.ts ⇄ plugin_point_hooks.ts had one), checked
 * on the module graph Deno resolves (`deno info --json`), type-only imports included.
 */
import assert from "node:assert/strict";
import { fromFileUrl } from "../project/file_url.ts";

const pluginsFolder = new URL("../../src/plugins/", import.meta.url).href;

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier?: string }; type?: { specifier?: string } }>;
}

/** The first cycle found among modules under `prefix`, as a list of file names, or undefined. */
function findCycle(modules: InfoModule[], prefix: string): string[] | undefined {
  const edges = new Map<string, string[]>();
  for (const module of modules) {
    if (!module.specifier.startsWith(prefix)) continue;
    edges.set(
      module.specifier,
      (module.dependencies ?? []).flatMap((dependency) =>
        [dependency.code?.specifier, dependency.type?.specifier].filter((
          target,
        ): target is string => target?.startsWith(prefix) === true)
      ),
    );
  }
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle.map((specifier) => specifier.slice(prefix.length));
  }
  return undefined;
}

Deno.test("src/plugins has no import cycle", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fromFileUrl(new URL("plugin_system.ts", pluginsFolder))],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const modules = JSON.parse(new TextDecoder().decode(output.stdout)).modules as InfoModule[];
  assert.ok(modules.some((module) => module.specifier.endsWith("plugin_point_hooks.ts")));
  assert.equal(findCycle(modules, pluginsFolder)?.join(" → "), undefined);
});
