/**
 * How the daemon starts the document subprocess (PDFs and comic archives). Under `deno run`: Deno
 * again with the subprocess module as entry, the project's deno.json (for the parsers' imports) and
 * read access to the parsers' package folders only (they read their .wasm files); in the compiled binary: the binary itself with the
 * hidden `--radar-pdf-extract` argument (it carries the `deno task radar` permissions, which the
 * subprocess revokes right after loading MuPDF). Either way a V8 heap flag, and on Linux an OS
 * data-segment ceiling through `prlimit`, bound memory: MuPDF's WASM memory lives outside the V8
 * heap and may grow to 2 GB.
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { pdfExtractFlag } from "./pdf_flag.ts";
import { withDataLimit } from "../os/process_limits.ts";

/** A program and its arguments. */
export interface PdfProcessCommand {
  command: string;
  args: string[];
}

/** What decides the command line. */
export interface PdfProcessCommandOptions {
  /** `Deno.build.standalone`: true inside the compiled binary. */
  standalone: boolean;
  execPath: string;
  /**
   * Folders the parsers read their WASM from (MuPDF's `dist` folder, node-unrar-js's package);
   * `deno run` only.
   */
  readFolders?: string[];
  /** Memory for MuPDF's WASM heap and the request, on top of what the runtime needs. */
  memoryMb: number;
  /** Path of `prlimit` when the OS has it (Linux), else undefined. */
  prlimitPath?: string;
}

/**
 * RLIMIT_DATA a bare subprocess needs to start Deno and load MuPDF (measured on Deno 2.9.6 /
 * Linux: below about 650 MB it cannot even instantiate the WASM module).
 */
export const baseDataLimitMb = 800;

/** The V8 heap ceiling of the subprocess (its JS objects are small: options and page texts). */
export const v8HeapMb = 256;

/** Builds the command line of one PDF subprocess (pure). */
export function pdfProcessCommand(options: PdfProcessCommandOptions): PdfProcessCommand {
  const command = options.execPath;
  let args: string[];
  if (options.standalone) {
    args = [pdfExtractFlag];
  } else {
    const entry = fromFileUrl(new URL("./pdf_extract_process.ts", import.meta.url));
    const config = fromFileUrl(new URL("../../../deno.json", import.meta.url));
    args = [
      "run",
      "--quiet",
      "--no-prompt",
      "--no-remote",
      "--cached-only",
      `--config=${config}`,
      `--v8-flags=--max-old-space-size=${v8HeapMb}`,
      ...(options.readFolders?.length ? [`--allow-read=${options.readFolders.join(",")}`] : []),
      entry,
    ];
  }
  return withDataLimit({ command, args }, options.prlimitPath, baseDataLimitMb + options.memoryMb);
}

/**
 * The subprocess environment: what Deno needs to find its cache, nothing else. `denoDir` (the
 * cache the parent itself loaded MuPDF from) wins over the parent's variables, which tests and
 * callers may have pointed elsewhere (HOME of a temporary home).
 */
export function pdfProcessEnvironment(
  parentEnv: Record<string, string | undefined>,
  denoDir?: string,
): Record<string, string> {
  const env: Record<string, string> = {
    NO_COLOR: "1",
    DENO_NO_PROMPT: "1",
    DENO_NO_UPDATE_CHECK: "1",
    DENO_V8_FLAGS: `--max-old-space-size=${v8HeapMb}`,
  };
  for (const name of ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA"]) {
    const value = parentEnv[name];
    if (value) env[name] = value;
  }
  if (denoDir) env.DENO_DIR = denoDir;
  return env;
}

/** The Deno cache folder holding an npm package file, e.g. ~/.cache/deno for its npm/ tree. */
export function denoDirOf(npmFile: string): string | undefined {
  const match = /^(.*)[\\/]npm[\\/][^\\/]+[\\/]mupdf[\\/]/.exec(npmFile);
  return match?.[1];
}
