/**
 * The package caches step of `deno task setup`: before any test runs, every npm package the suite
 * needs is in the caches the tests read, so a first run from an empty cache neither downloads in
 * the middle of a test (a "Download …" line on a stderr a test reads) nor fails offline:
 *
 * - deno.json's packages (`deno install`), and what the whole project's graph reaches
 *   (`deno cache`, dynamic imports included);
 * - what the MCP servers the tests run inside the sandbox resolve on their own (`--no-lock`,
 *   `--cached-only`: an optional peer such as `@cfworker/json-schema` is not in deno.lock), each
 *   cached exactly as it runs (`deno cache --no-lock`);
 * - the npx-started reference server in its own npm cache, when npx is here;
 * - the same again as the test user, into its own Deno cache (scripts/test_user_setup.ts).
 *
 * The tests take their server programs from here (`pinnedServerCopy`, `sandboxedServerPackages`),
 * so what setup caches is what they run.
 */
import { join } from "node:path";
import { findProgram } from "./system_parts.ts";

/** npm packages the tests start as MCP servers inside the sandbox (offline, without the lock). */
export const sandboxedServerPackages = [
  "npm:@modelcontextprotocol/server-filesystem@2026.8.31",
] as const;

/** The reference server the npx test starts (`npx -y PACKAGE`), in its own npm cache. */
export const npxServerPackage = "@modelcontextprotocol/server-filesystem@2026.8.31";

/** MCP server sources in tests/fixtures the tests copy and start inside the sandbox. */
export const sandboxedServerSources = ["tests/fixtures/mcp/hostile_server.ts"] as const;

const root = new URL("../", import.meta.url);

/** The project folders whose modules are cached (every entry the suite and the bench load). */
const projectEntries = ["main.ts", "src/", "web/", "tests/", "bench/", "scripts/", "plugins/"];

/**
 * A copy of a fixture server in `folder` (created), its bare imports spelled as the npm:
 * specifiers deno.json maps them to: the sandbox hides /tmp (where a checkout may live) and the
 * checkout's deno.json with it, so a server runs from a folder it is granted, on its own.
 */
export function pinnedServerCopy(
  source: (typeof sandboxedServerSources)[number],
  folder: string,
): string {
  const imports = JSON.parse(Deno.readTextFileSync(new URL("deno.json", root))).imports as Record<
    string,
    string
  >;
  const text = Deno.readTextFileSync(new URL(source, root));
  const rewritten = text.replace(/from "([^"]+)";/g, (whole, specifier: string) => {
    const prefix = Object.keys(imports).find((key) =>
      key.endsWith("/") && specifier.startsWith(key)
    );
    if (prefix) return `from "${imports[prefix]}${specifier.slice(prefix.length)}";`;
    return imports[specifier] ? `from "${imports[specifier]}";` : whole;
  });
  Deno.mkdirSync(folder, { recursive: true });
  const path = join(folder, source.split("/").at(-1)!);
  Deno.writeTextFileSync(path, rewritten);
  return path;
}

/** Where the npx test keeps its npm cache: outside /tmp (private in the sandbox) and its home. */
export function npxCacheFolder(home = Deno.env.get("HOME") ?? "/root"): string {
  return join(home, ".cache", "radar-test-npm");
}

/**
 * Fills the npx cache with the reference server (needs the npm registry); undefined when it
 * worked, else npm's first error line.
 */
export async function fillNpxCache(npx: string, cache = npxCacheFolder()): Promise<
  string | undefined
> {
  const output = await new Deno.Command(npx, {
    args: ["-y", "--cache", cache, npxServerPackage],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(180_000),
  }).output().catch((error: Error) => ({
    success: false,
    stderr: new TextEncoder().encode(error.message),
  }));
  const stderr = new TextDecoder().decode(output.stderr);
  // Without folders the server starts, reads EOF on stdin and exits: the install worked.
  if (output.success || /Secure MCP Filesystem Server/.test(stderr)) return undefined;
  return stderr.split("\n").find((line) => /error/i.test(line))?.slice(0, 200) ?? "npx failed";
}

/** How a step runs a command: as this user, or wrapped (as the test user) with its variables. */
export interface CacheRunner {
  /** argv → the argv that runs it (identity for this user). */
  wrap(argv: string[]): string[];
  /** Variables the command gets (DENO_DIR, HOME). */
  env: Record<string, string>;
  /** A scratch folder the runner can read (for the server copies). */
  scratch: string;
}

/** One failed command, as one line. */
export class CacheError extends Error {}

async function mustRun(runner: CacheRunner, argv: string[], cwd: string): Promise<void> {
  const command = runner.wrap(argv);
  const output = await new Deno.Command(command[0], {
    args: command.slice(1),
    cwd,
    env: runner.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stderr).trim() ||
      new TextDecoder().decode(output.stdout).trim();
    // deno-lint-ignore no-control-regex
    const why = text.replace(/\x1b\[[0-9;]*m/g, "").split("\n").find((line) => /error/i.test(line));
    throw new CacheError(`\`${argv.slice(1).join(" ")}\` failed: ${why ?? `exit ${output.code}`}`);
  }
}

/**
 * Caches everything above with `deno` (this deno) through `runner`: deno.json's packages, the
 * project's graph, and each sandboxed server as it runs. Returns what it cached, for one line.
 */
export async function cacheTestPackages(
  deno: string,
  checkout: string,
  runner: CacheRunner,
): Promise<string> {
  await mustRun(runner, [deno, "install", "--quiet"], checkout);
  await mustRun(runner, [deno, "cache", "--quiet", ...projectEntries], checkout);
  for (const specifier of sandboxedServerPackages) {
    await mustRun(runner, [deno, "cache", "--quiet", "--no-lock", specifier], runner.scratch);
  }
  for (const source of sandboxedServerSources) {
    const copy = pinnedServerCopy(source, join(runner.scratch, "servers"));
    await mustRun(runner, [deno, "cache", "--quiet", "--no-lock", copy], runner.scratch);
  }
  return `deno.json's packages, the project's modules and ${
    sandboxedServerPackages.length + sandboxedServerSources.length
  } sandboxed MCP servers`;
}

/** npx, when this machine has it and the user did not opt out of the node tests. */
export function npxForTests(optedOut: boolean): string | undefined {
  return optedOut ? undefined : findProgram("npx");
}
