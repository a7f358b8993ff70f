/**
 * What every Radar process loads at start: the static import graph of main.ts (`deno info
 * --json`, type-only and dynamic imports left out). The optional integrations (mail, calendar,
 * MCP) and the dashboard are imported where they are used, so `radar ask` and an idle daemon
 * without them neither wait for nor hold them; `deno compile` still embeds them (the literal
 * dynamic imports are in the full graph).
 */
import assert from "node:assert/strict";

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}
interface GraphModule {
  specifier: string;
  kind?: string;
  dependencies?: Dependency[];
}
interface Graph {
  roots: string[];
  modules: GraphModule[];
  redirects: Record<string, string>;
}

async function mainGraph(): Promise<Graph> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** Every specifier reached from the root through value imports that are not dynamic. */
function staticallyReached(graph: Graph): Set<string> {
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>(graph.roots);
  const queue = [...graph.roots];
  while (queue.length) {
    const specifier = queue.shift()!;
    const module = modules.get(graph.redirects[specifier] ?? specifier);
    for (const dependency of module?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (!target || dependency.isDynamic || reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  return reached;
}

const optional = [
  /^npm:\/?imapflow@/,
  /^npm:\/?tsdav@/,
  /^npm:\/?ical\.js@/,
  // The MCP client and both transports.
  /^npm:\/?@modelcontextprotocol\/sdk@[^/]*\/client\/index\.js$/,
  /^npm:\/?@modelcontextprotocol\/sdk@[^/]*\/client\/streamableHttp\.js$/,
  /\/src\/mcp\/sandboxed_stdio_transport\.ts$/,
  /^npm:\/?markdown-it@/,
  /\/web\/server\.ts$/,
  /\/web\/app\.tsx$/,
  // Parsers needed by one tool or check each: dates, page diffs, HTML.
  /^npm:\/?chrono-node@/,
  /^npm:\/?diff@/,
  /^npm:\/?node-html-parser@/,
  // Bank statements: CSV and XML parsers load with the first imported file.
  /^npm:\/?csv-parse@/,
  /^npm:\/?fast-xml-parser@/,
  // Backup archives (radar backup, radar restore, the scheduled backup).
  /^npm:\/?tar-stream@/,
  // Comic archives and ComicInfo.xml (the document subprocess loads them per job).
  /^npm:\/?@zip\.js\/zip\.js@/,
  /^npm:\/?node-unrar-js@/,
  /^npm:\/?fast-xml-parser@/,
];

Deno.test("main.ts loads no mail, calendar, MCP, dashboard or single-use parser module statically", async () => {
  const graph = await mainGraph();
  const reached = [...staticallyReached(graph)];
  for (const pattern of optional) {
    assert.deepEqual(reached.filter((specifier) => pattern.test(specifier)), [], String(pattern));
  }
  // The walk itself works: the CLI and its config parser are reached.
  assert.ok(reached.some((specifier) => specifier.endsWith("/src/cli/program.ts")));
  assert.ok(reached.some((specifier) => /^npm:\/?yaml@/.test(specifier)));
});

Deno.test("deno compile still embeds the optional modules (literal dynamic imports)", async () => {
  const graph = await mainGraph();
  const all = graph.modules.map((module) => module.specifier);
  const packages = graph.modules.flatMap((module) =>
    (module.dependencies ?? []).map((dependency) => dependency.code?.specifier ?? "")
  );
  for (const pattern of optional) {
    assert.ok([...all, ...packages].some((specifier) => pattern.test(specifier)), String(pattern));
  }
});
