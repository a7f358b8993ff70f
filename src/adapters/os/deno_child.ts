/**
 * How Radar starts one of its own short-lived child modes (the PDF reader, the HTML query): in the
 * compiled binary, the binary itself with the mode's hidden first argument (main.ts), which carries
 * the `deno task radar` permissions and revokes them after loading its library; under `deno run`,
 * Deno again with the mode's module as entry, the project's deno.json (for its npm import), from
 * the cache only and with no permission but `allowRead`. Both get a V8 heap ceiling and an
 * environment holding only what Deno needs to find its cache.
 */
import { fileURLToPath as fromFileUrl } from "node:url";

/** A program and its arguments. */
export interface ChildCommand {
  command: string;
  args: string[];
}

/** What decides a child's command line. */
export interface ChildCommandOptions {
  /** `Deno.build.standalone`: true inside the compiled binary. */
  standalone: boolean;
  execPath: string;
  /** The binary's hidden argument for this mode (main.ts). */
  flag: string;
  /** The mode's module, started as entry under `deno run`. */
  entry: URL;
  /** The V8 heap ceiling in MB. */
  heapMb: number;
  /** Folders the child may read under `deno run` (e.g. a package's .wasm file). */
  allowRead?: string[];
}

/** The command line of one child (pure). */
export function denoChildCommand(options: ChildCommandOptions): ChildCommand {
  if (options.standalone) return { command: options.execPath, args: [options.flag] };
  const config = fromFileUrl(new URL("../../../deno.json", import.meta.url));
  return {
    command: options.execPath,
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--no-remote",
      "--cached-only",
      `--config=${config}`,
      `--v8-flags=--max-old-space-size=${options.heapMb}`,
      ...(options.allowRead?.length ? [`--allow-read=${options.allowRead.join(",")}`] : []),
      fromFileUrl(options.entry),
    ],
  };
}

/**
 * A child's environment: what Deno needs to find its cache (the parent's `inherited` variables),
 * nothing else. `denoDir` (the cache the parent itself resolved the child's package from) wins over
 * the parent's variables, which tests and callers may have pointed elsewhere (HOME of a temporary
 * home).
 */
export function denoChildEnvironment(
  parentEnv: Record<string, string | undefined>,
  denoDir: string | undefined,
  heapMb: number,
  inherited = ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA"],
): Record<string, string> {
  const env: Record<string, string> = {
    NO_COLOR: "1",
    DENO_NO_PROMPT: "1",
    DENO_NO_UPDATE_CHECK: "1",
    DENO_V8_FLAGS: `--max-old-space-size=${heapMb}`,
  };
  for (const name of inherited) {
    const value = parentEnv[name];
    if (value) env[name] = value;
  }
  if (denoDir) env.DENO_DIR = denoDir;
  return env;
}

/**
 * The Deno cache folder holding a file of npm package `name`, e.g. ~/.cache/deno for
 * ~/.cache/deno/npm/registry.npmjs.org/mupdf/1.28.1/dist/mupdf.js; undefined elsewhere.
 */
export function denoDirOf(npmFile: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^(.*)[\\\\/]npm[\\\\/][^\\\\/]+[\\\\/]${escaped}[\\\\/]`).exec(npmFile)?.[1];
}
