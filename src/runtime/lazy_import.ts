/**
 * Imports a module on first use without putting it in the start-up module graph.
 *
 * Deno builds the graph of every statically analyzable `import("./literal.ts")` when a program
 * starts, even if the import never runs: for Radar's CLI that meant analysing the whole
 * application (~330 modules and its npm packages, 10–15 ms) before `radar ask` could do anything.
 * A URL built at run time is not analysed, so only what a command really imports is loaded.
 * The type parameter keeps the call type-checked: pass `typeof import("./same/path.ts")`.
 * `deno task compile` embeds these modules with `--include src/` and `--include web/`, and
 * tests/cli/startup_graph_test.ts checks that both paths of every call agree.
 *
 * @example
 * const { openRuntime } = await importLazily<typeof import("./runtime.ts")>(
 *   new URL("./runtime.ts", import.meta.url),
 * );
 */
export function importLazily<Module>(url: URL): Promise<Module> {
  return import(url.href) as Promise<Module>;
}
