/**
 * Reads a plugin folder as hostile input: regular files only (a symlink or device is refused),
 * bounded size and count, code files checked for imports that leave the folder. The file set is
 * hashed so an approval can be tied to exactly these bytes.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseManifest, type PluginManifest } from "../sandbox/manifest.ts";
import type { PluginCode } from "../sandbox/plugin_process.ts";

/** Limits for one plugin folder. */
const pluginFolderLimits = { maxFiles: 64, maxBytes: 1_000_000, maxDepth: 4 };

/** A plugin folder read into memory. */
export interface PluginFolder {
  /** Folder name (must equal the manifest name). */
  name: string;
  path: string;
  manifest: PluginManifest;
  /** Relative path → text, every file of the folder. */
  files: Record<string, string>;
  /** sha-256 over every relative path and its bytes, hex. */
  hash: string;
}

/** Reading a folder: the plugin or readable problems. */
export type PluginFolderResult = { ok: true; folder: PluginFolder } | {
  ok: false;
  errors: string[];
};

const codeFile = /\.(ts|js)$/;
const typeImportPattern = /^\s*(?:import|export)\s+type\s[^;]*?from\s*["'][^"'\n]+["'];?/gm;
const specifierPattern =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s*\*\s*from\s*)(["'])([^"'\n]+)\1/g;

/** Import specifiers in code that are not relative paths inside the plugin (pure). */
function forbiddenImports(files: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!codeFile.test(path)) continue;
    for (const match of text.replace(typeImportPattern, "").matchAll(specifierPattern)) {
      const specifier = match[2];
      if (!/^\.{1,2}\//.test(specifier)) {
        problems.push(`${path}: import "${specifier}" is not allowed (relative imports only)`);
      } else if (!/\.(ts|js)$/.test(specifier)) {
        problems.push(`${path}: import "${specifier}" must name a .ts or .js file`);
      }
    }
  }
  return problems;
}

/** Hashes a file set (sorted by path) with sha-256, hex. */
function hashFiles(files: Record<string, string>): string {
  const hash = createHash("sha256");
  for (const path of Object.keys(files).sort()) {
    hash.update(`${path}\0${files[path].length}\0`);
    hash.update(files[path]);
  }
  return hash.digest("hex");
}

/** Reads every file of a folder (no symlinks, bounded); throws a readable Error. */
export function readFolderFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  let bytes = 0;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const walk = (relative: string, depth: number) => {
    if (depth > pluginFolderLimits.maxDepth) throw new Error(`${relative} is nested too deeply`);
    for (const entry of Deno.readDirSync(join(dir, relative))) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymlink) throw new Error(`${path} is a symbolic link (not allowed in plugins)`);
      if (entry.isDirectory) {
        walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile) throw new Error(`${path} is not a regular file`);
      if (Object.keys(files).length >= pluginFolderLimits.maxFiles) {
        throw new Error(`more than ${pluginFolderLimits.maxFiles} files`);
      }
      const data = Deno.readFileSync(join(dir, path));
      bytes += data.length;
      if (bytes > pluginFolderLimits.maxBytes) {
        throw new Error(`larger than ${pluginFolderLimits.maxBytes} bytes`);
      }
      try {
        files[path] = decoder.decode(data);
      } catch {
        throw new Error(`${path} is not UTF-8 text`);
      }
    }
  };
  walk("", 0);
  return files;
}

/** Validates a file set as a plugin named `name` (pure). */
export function validatePluginFiles(
  name: string,
  path: string,
  files: Record<string, string>,
): PluginFolderResult {
  const manifestText = files["manifest.yaml"];
  if (manifestText === undefined) return { ok: false, errors: ["manifest.yaml is missing"] };
  const parsed = parseManifest(manifestText, name);
  if (!parsed.ok) return parsed;
  const errors: string[] = [];
  if (files["tool.ts"] === undefined) errors.push("tool.ts is missing");
  for (const file of parsed.manifest.personalities) {
    if (files[`personalities/${file}`] === undefined) {
      errors.push(`personalities/${file} is missing`);
    }
  }
  errors.push(...forbiddenImports(files));
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    folder: { name, path, manifest: parsed.manifest, files, hash: hashFiles(files) },
  };
}

/** Reads and validates the plugin folder at `path` (named after the folder unless `name` given). */
export function readPluginFolder(path: string, name?: string): PluginFolderResult {
  name ??= path.replace(/\/+$/, "").split("/").at(-1) ?? "";
  let files: Record<string, string>;
  try {
    files = readFolderFiles(path);
  } catch (error) {
    return { ok: false, errors: [`Cannot read plugin ${name}: ${(error as Error).message}`] };
  }
  return validatePluginFiles(name, path, files);
}

/** The code the plugin host runs: code files only, and the functions the manifest names. */
export function pluginCode(folder: PluginFolder): PluginCode {
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(folder.files)) {
    if (codeFile.test(path)) files[path] = text;
  }
  const manifest = folder.manifest;
  return {
    name: manifest.name,
    files,
    entry: "tool.ts",
    functions: [
      ...manifest.tools.map((tool) => tool.name),
      ...manifest.hooks.map((hook) => hook.function),
      ...manifest.prompt_variables.map((variable) => variable.name),
      ...(manifest.widget ? [manifest.widget.function] : []),
    ],
  };
}
