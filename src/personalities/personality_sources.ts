/**
 * Where personalities come from: the data folder's `NAME/PERSONALITY.md`, then `NAME.md`, then the
 * bundled `default` (a file `deno compile --include personalities/` embeds), then the enabled
 * plugins' bundled files. Unlike the developer guide, a name is never read as a path (issue 23: a
 * path turned every surface that shows a personality into a file-read oracle); a file becomes a
 * personality through `radar personality create NAME --from FILE`.
 */
import { dirname, join } from "node:path";
import type { PersonalityKind } from "./personality.ts";
import { folderEntries, isFile } from "../config/quiet_stat.ts";
import { writeTextFileAtomically } from "../config/atomic_file.ts";
import {
  type ContextDocumentFile,
  listContextDocuments,
  resourceFolders,
} from "./personality_directory.ts";
import {
  maxPersonalityFileBytes,
  parsePersonality,
  type PersonalityFrontMatter,
  personalityNamePattern,
  readBoundedText,
} from "./personality_file.ts";

/** A personality file a plugin bundles (its approved bytes, from the plugin's folder). */
export interface PluginPersonalityFile {
  plugin: string;
  /** The file name under the plugin's `personalities/` folder ("wordsmith.md"). */
  file: string;
  text: string;
}

/** A personality read and parsed, ready for the system prompt. */
export interface ResolvedPersonality {
  name: string;
  kind: PersonalityKind;
  /** The file or folder, `plugin:NAME`, `bundled`, or `radar.personality` for inline text. */
  source: string;
  editable: boolean;
  /** The whole file as stored. */
  text: string;
  /** The file's body, front matter removed. */
  body: string;
  frontMatter: PersonalityFrontMatter;
  /** A directory personality's folder. */
  dir?: string;
  contextDocuments: ContextDocumentFile[];
  /** Existing `scripts/` and `assets/` folders of a directory personality. */
  resources: string[];
}

/** A personality, a one-line problem with its file, or nothing by that name. */
export type Resolution = ResolvedPersonality | { error: string } | undefined;

/** The bundled personalities folder (inside the compiled binary too). */
function bundledPersonalitiesPath(): string {
  return decodeURIComponent(new URL("../../personalities/", import.meta.url).pathname)
    .replace(/\/$/, "");
}

/** Where personalities are looked up. */
export interface SourceOptions {
  /** `<data>/personalities`. */
  dir: string;
  plugins?: () => PluginPersonalityFile[];
  warn?: (line: string) => void;
}

/** Reads one personality file into a resolution. */
function readPersonalityFile(
  file: string,
  meta: { name: string; kind: PersonalityKind; source: string; editable: boolean; dir?: string },
  warn?: (line: string) => void,
): Resolution {
  const read = readBoundedText(file);
  if ("error" in read) return read;
  return fromText(read.text, file, meta, warn);
}

function fromText(
  text: string,
  where: string,
  meta: { name: string; kind: PersonalityKind; source: string; editable: boolean; dir?: string },
  warn?: (line: string) => void,
): Resolution {
  const parsed = parsePersonality(text, where);
  if (typeof parsed === "string") return { error: parsed };
  return {
    ...meta,
    text,
    body: parsed.body,
    frontMatter: parsed.frontMatter,
    contextDocuments: meta.dir ? listContextDocuments(meta.dir, warn) : [],
    resources: meta.dir ? resourceFolders(meta.dir) : [],
  };
}

/** A personality in the data folder (directory first, then flat), or undefined. */
export function resolveInDataFolder(name: string, options: SourceOptions): Resolution {
  if (!personalityNamePattern.test(name)) return undefined;
  const folder = join(options.dir, name);
  const flat = join(options.dir, `${name}.md`);
  if (isFile(join(folder, "PERSONALITY.md"))) {
    const meta = { name, kind: "directory" as const, source: folder, editable: true, dir: folder };
    return readPersonalityFile(join(folder, "PERSONALITY.md"), meta, options.warn);
  }
  if (!isFile(flat)) return undefined;
  const meta = { name, kind: "flat" as const, source: flat, editable: true };
  return readPersonalityFile(flat, meta, options.warn);
}

/** A personality an enabled plugin bundles, or undefined. */
function resolveFromPlugins(name: string, options: SourceOptions): Resolution {
  if (!personalityNamePattern.test(name)) return undefined;
  const found = (options.plugins?.() ?? []).find((entry) => entry.file === `${name}.md`);
  if (!found) return undefined;
  if (found.text.length > maxPersonalityFileBytes) {
    return { error: `plugin ${found.plugin}: personalities/${found.file} is too large` };
  }
  return fromText(found.text, `plugin ${found.plugin}: personalities/${found.file}`, {
    name,
    kind: "plugin",
    source: `plugin:${found.plugin}`,
    editable: false,
  });
}

/** The bundled personality of that name (only `default` ships), or undefined. */
export function resolveBundled(name: string): Resolution {
  if (name !== "default") return undefined;
  const file = join(bundledPersonalitiesPath(), "default.md");
  return readPersonalityFile(file, {
    name,
    kind: "bundled",
    source: "bundled",
    editable: false,
  });
}

/**
 * Resolves a name; undefined when nothing has that name (and always for a path or any other text
 * that is not a personality name). A plugin cannot shadow the bundled `default`: that one applies
 * without the user choosing it, and a plugin's personalities were approved as ones "you choose".
 */
export function resolvePersonality(name: string, options: SourceOptions): Resolution {
  if (!personalityNamePattern.test(name)) return undefined;
  return resolveInDataFolder(name, options) ?? resolveBundled(name) ??
    resolveFromPlugins(name, options);
}

/** The names of the data folder's personalities (flat and directory ones), sorted. */
export function dataFolderNames(dir: string): string[] {
  const names = new Set<string>();
  for (const entry of folderEntries(dir)) {
    const name = entry.name.replace(/\.md$/, "");
    if (!personalityNamePattern.test(name)) continue;
    if (entry.name.endsWith(".md") && isFile(join(dir, entry.name))) names.add(name);
    if (!entry.name.endsWith(".md") && isFile(join(dir, entry.name, "PERSONALITY.md"))) {
      names.add(name);
    }
  }
  return [...names].sort();
}

/** Writes a file atomically (`writeTextFileAtomically`), creating its folder first. */
export function writeFileAtomically(path: string, text: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  writeTextFileAtomically(path, text);
}
