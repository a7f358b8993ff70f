/**
 * The layer table of ARCHITECTURE.md, enforced on the module graph Deno itself resolves
 * (`deno info --json` over every source file), not on regexes over import lines: type-only and
 * re-exports count, and so does anything a regex would miss.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fromFileUrl } from "./file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/**
 * Capability folders: every other layer imports one through its face (`mod.ts`), but for the
 * ports the SQLite stores implement and the library's lookup addresses (the tools name them as
 * destinations without loading the library).
 */
const capabilities: Record<string, readonly string[]> = {
  "src/away": ["src/away/approval_ports.ts", "src/away/action_journal.ts", "src/away/receipts.ts"],
  "src/money": ["src/money/money_store.ts", "src/money/money.ts"],
  "src/library": [
    "src/library/comic_archive.ts",
    "src/library/comic_info.ts",
    "src/library/pdf_reader.ts",
    "src/library/lookup_services.ts",
  ],
};

/** The ports adapters implement outside src/core: the capabilities' and the event sources'. */
function adapterPorts(): string[] {
  return [
    ...Object.values(capabilities).flat(),
    "src/sources/source_stores.ts",
    "src/sources/watched_folders.ts",
  ];
}

/**
 * Which layers each layer may import (itself always). Mirrors ARCHITECTURE.md's table. An entry
 * may name part of a layer: "src/adapters/network" allows only the shared network helpers.
 */
const mayImport: Record<string, readonly string[]> = {
  "src/core": [],
  "src/config": ["src/core"],
  // The stores and the file watcher implement ports declared beside their users (see above).
  "src/adapters": ["src/core", "src/config", ...adapterPorts()],
  "src/hooks": ["src/core", "src/config"],
  "src/skills": ["src/core", "src/config"],
  "src/personalities": ["src/core", "src/config"],
  "src/sandbox": [
    "src/core",
    "src/config",
    "src/adapters/os",
    "src/adapters/network/address_policy.ts",
  ],
  "src/tools": [
    "src/core",
    "src/config",
    "src/adapters/network",
    "src/adapters/os",
    "src/away",
    "src/money",
    "src/library",
    "src/sources/calendar/calendar_text.ts",
  ],
  "src/away": ["src/core", "src/config", "src/adapters/os"],
  "src/money": ["src/core", "src/config", "src/sources"],
  "src/library": ["src/core", "src/config", "src/adapters", "src/away"],
  // Sources reach storage only through ports (src/core/source_stores.ts, work_ports.ts).
  "src/sources": ["src/core", "src/config", "src/adapters/os", "src/adapters/network"],
  "src/plugins": ["src/core", "src/config", "src/adapters", "src/sandbox"],
  "src/mcp": ["src/core", "src/config", "src/adapters", "src/version.ts"],
  "src/application": ["src/core", "src/config", "src/away"],
  // The chat channels: adapters (grammY, matrix-js-sdk, nodemailer) and what is done with messages.
  "src/channels": [
    "src/core",
    "src/config",
    "src/adapters",
    "src/application",
    "src/away",
    "src/sources",
  ],
  "src/daemon": [
    "src/core",
    "src/config",
    "src/adapters",
    "src/application",
    "src/plugins",
    "src/runtime",
    "src/sources",
  ],
  "src/runtime": [
    "src/core",
    "src/config",
    "src/adapters",
    "src/hooks",
    "src/skills",
    "src/personalities",
    "src/sandbox",
    "src/tools",
    "src/sources",
    "src/plugins",
    "src/mcp",
    "src/application",
    "src/channels",
    "src/away",
    "src/money",
    "src/library",
    "src/version.ts",
  ],
  "src/eval": ["src/core", "src/config", "src/runtime"],
  // The channel checks read secrets and ask services through the channels' own code.
  "src/doctor": [
    "src/core",
    "src/config",
    "src/adapters",
    "src/runtime",
    "src/channels",
    "src/sources/email/imap_connection.ts",
    "src/daemon/lock_file.ts",
  ],
  "web": [
    "src/core",
    "src/config",
    "src/adapters",
    "src/application",
    "src/away",
    "src/money",
    "src/personalities",
    "src/plugins/widget.ts",
    "src/runtime",
    "src/sources/watched_folders.ts",
    "src/daemon",
    "src/version.ts",
  ],
  "src/cli": ["*"],
  "main.ts": ["*"],
  "src/version.ts": [],
};

/**
 * Single imports that cross the table today, each with its reason. Shrink this list; never grow
 * it without a line in ARCHITECTURE.md.
 */
const knownExceptions: Record<string, string> = {
  "src/adapters/sqlite/plugin_records.ts -> src/plugins/plugin_records.ts":
    "the plugin records port is declared beside the plugin lifecycle",
  "src/adapters/sqlite/mcp_approvals.ts -> src/mcp/approval.ts":
    "the MCP approvals port is declared beside the MCP servers",
};

/** npm packages a layer may use (absent: any package pinned in deno.json). */
const npmAllowed: Record<string, readonly string[]> = { "src/core": ["zod"] };

interface ModuleInfo {
  specifier: string;
  dependencies?: Array<{
    specifier: string;
    code?: { specifier?: string };
    type?: { specifier?: string };
  }>;
}

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!["fixtures", "output", "static", "node_modules"].includes(entry.name)) walk(path);
      } else if (/\.tsx?$/.test(entry.name)) found.push(path);
    }
  };
  walk(join(root, folder));
  return found;
}

/** The module graph of `files` as `deno info --json` resolves it. */
async function moduleGraph(files: string[]): Promise<ModuleInfo[]> {
  const folder = await Deno.makeTempDir({ prefix: "radar-architecture-" });
  try {
    const entry = join(folder, "all.ts");
    const lines = files.map((file) => `import ${JSON.stringify(new URL(`file://${file}`).href)};`);
    await Deno.writeTextFile(entry, lines.join("\n"));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--no-remote", `--config=${join(root, "deno.json")}`, entry],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    return JSON.parse(new TextDecoder().decode(output.stdout)).modules;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

/** The layer of a repository path: "src/core", "web", "main.ts"… */
function layerOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "src" && parts.length > 2) return `src/${parts[1]}`;
  if (parts[0] === "src" || parts.length === 1) return path;
  return parts[0];
}

/** Every import of a product file: from (repo path) → to (repo path, or the npm/node specifier). */
function productImports(modules: ModuleInfo[]): Array<{ from: string; to: string }> {
  const rootUrl = new URL(`file://${root}`).href;
  const imports: Array<{ from: string; to: string }> = [];
  for (const module of modules) {
    if (!module.specifier.startsWith(rootUrl)) continue;
    const from = module.specifier.slice(rootUrl.length);
    if (!/^(src\/|web\/|main\.ts)/.test(from)) continue;
    for (const dependency of module.dependencies ?? []) {
      for (const target of [dependency.code?.specifier, dependency.type?.specifier]) {
        if (!target) continue;
        imports.push({
          from,
          to: target.startsWith(rootUrl) ? target.slice(rootUrl.length) : target,
        });
      }
    }
  }
  return imports;
}

const product = productImports(
  await moduleGraph([
    join(root, "main.ts"),
    ...sourceFiles("src"),
    ...sourceFiles("web"),
  ]),
);

Deno.test("every import follows the layer table (deno info)", () => {
  const broken = new Set<string>();
  for (const { from, to } of product) {
    if (/^(npm:|node:|jsr:|https?:)/.test(to)) continue;
    const fromLayer = layerOf(from);
    const toLayer = layerOf(to);
    const allowed = mayImport[fromLayer];
    assert.ok(allowed, `${from}: its folder is not in the layer table`);
    if (fromLayer === toLayer || allowed.includes("*") || allowed.includes(toLayer)) continue;
    if (allowed.some((part) => to === part || to.startsWith(`${part}/`))) continue;
    if (knownExceptions[`${from} -> ${to}`]) continue;
    broken.add(`${from} -> ${to}`);
  }
  assert.deepEqual([...broken], [], "imports that break the layer table");
});

Deno.test("a capability is imported through its face (mod.ts), its ports by the stores", () => {
  const around = new Set<string>();
  for (const { from, to } of product) {
    const home = Object.keys(capabilities).find((folder) => to.startsWith(`${folder}/`));
    if (!home || from.startsWith(`${home}/`) || to === `${home}/mod.ts`) continue;
    if (!capabilities[home].includes(to)) around.add(`${from} -> ${to}`);
  }
  assert.deepEqual([...around], [], "imports around a capability's face");
});

/**
 * Import circles (type-only imports count) known today, by a file each holds, with the import
 * that closes it. Shrink this list; a new circle fails, and so does a known one once broken.
 */
const knownCircles: Record<string, string> = {
  "src/adapters/sqlite/database.ts": "each migration takes the Migration type from database.ts",
  "web/app.tsx": "each route takes the RouteContext type from app.tsx",
};

/** The import circles among product files (strongly connected parts of the graph). */
function circles(): string[][] {
  const edges = new Map<string, string[]>();
  for (const { from, to } of product) {
    if (/^(npm:|node:|jsr:|https?:)/.test(to) || from === to) continue;
    edges.set(from, [...edges.get(from) ?? [], to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      part.push(top);
    } while (top !== file);
    if (part.length > 1) found.push(part.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

Deno.test("no import circles but the known ones, and each known one still there", () => {
  const found = circles();
  const unknown = found.filter((part) => !part.some((file) => knownCircles[file]));
  assert.deepEqual(unknown, [], "new import circles");
  for (const file of Object.keys(knownCircles)) {
    assert.ok(found.some((part) => part.includes(file)), `${file}: no circle now, delete it`);
  }
});

Deno.test("the known exceptions still exist (delete them once fixed)", () => {
  const seen = new Set(product.map(({ from, to }) => `${from} -> ${to}`));
  for (const edge of Object.keys(knownExceptions)) assert.ok(seen.has(edge), edge);
});

/** "npm:@types/picomatch@4.0.3" → "@types/picomatch"; "npm:/hono@4.13.19/jsx" → "hono". */
function npmName(specifier: string): string {
  return /^npm:\/?(@?[^@/]+(?:\/[^@/]+)?)@/.exec(specifier)?.[1] ?? specifier;
}

Deno.test("npm packages: src/core uses zod only; every package is pinned in deno.json", () => {
  const pinned = Object.values(
    JSON.parse(Deno.readTextFileSync(join(root, "deno.json"))).imports as Record<string, string>,
  ).map(npmName);
  for (const { from, to } of product) {
    if (!to.startsWith("npm:")) continue;
    const name = npmName(to);
    const only = npmAllowed[layerOf(from)];
    if (only) assert.ok(only.includes(name), `${from} imports ${name}`);
    assert.ok(pinned.includes(name), `${from} imports ${to}, not pinned in deno.json`);
  }
});

Deno.test("libraries come from npm only: no jsr: or URL imports, every import map entry is npm:", () => {
  const remote = product.filter(({ to }) => /^(jsr:|https?:)/.test(to));
  assert.deepEqual(remote.map(({ from, to }) => `${from} -> ${to}`), []);
  const imports = JSON.parse(Deno.readTextFileSync(join(root, "deno.json"))).imports as Record<
    string,
    string
  >;
  for (const [name, target] of Object.entries(imports)) {
    assert.match(
      target,
      /^npm:\/?(@[^@/]+\/)?[^@/]+@\d+\.\d+\.\d+/,
      `${name}: ${target} is not an exact npm version`,
    );
  }
});

Deno.test("src/core is pure: no Deno, fetch, console, Date.now or randomUUID", () => {
  const forbidden = /\bDeno\.|\bfetch\(|\bconsole\.|\bDate\.now\(|randomUUID|new Date\(\)/;
  for (const file of sourceFiles("src/core")) {
    const text = Deno.readTextFileSync(file).replace(/\/\*\*[\s\S]*?\*\//g, "");
    assert.doesNotMatch(text, forbidden, relative(root, file));
  }
  for (const { from, to } of product) {
    if (layerOf(from) === "src/core") assert.doesNotMatch(to, /^node:/, `${from} imports ${to}`);
  }
});

Deno.test("one home for SQL: node:sqlite only in src/adapters/sqlite and the composition root", () => {
  const users = [
    ...new Set(product.filter(({ to }) => to === "node:sqlite").map(({ from }) => from)),
  ]
    .filter((from) => !from.startsWith("src/adapters/sqlite/") && !from.startsWith("src/runtime/"));
  assert.deepEqual(users, [], "files that reach the database around the store ports");
});

Deno.test("no jsr: or remote imports anywhere (hostile fixtures aside)", async () => {
  const files = ["tests", "bench", "scripts", "plugins"].flatMap((folder) => sourceFiles(folder));
  const modules = await moduleGraph(files);
  const rootUrl = new URL(`file://${root}`).href;
  for (const module of modules) {
    if (!module.specifier.startsWith(rootUrl)) continue;
    for (const dependency of module.dependencies ?? []) {
      assert.doesNotMatch(
        dependency.specifier,
        /^(jsr:|https?:)/,
        `${module.specifier.slice(rootUrl.length)}: ${dependency.specifier}`,
      );
    }
  }
  for (const { from, to } of product) assert.doesNotMatch(to, /^(jsr:|https?:)/, from);
});
