/**
 * What a directory personality brings beside its PERSONALITY.md: context documents
 * (`context/*.md`, listed by name and description, read on demand by `load_context`) and the
 * `scripts/` and `assets/` folders the model may reach with read_file and exec. A document is
 * only ever found by its listed name, and every read re-checks that its real path stays inside
 * the personality's folder (no `..`, no absolute path, no symlink out).
 */
import { join } from "node:path";
import type { PersonalityContextDocument } from "./personality.ts";
import { maxPersonalityFileBytes, readBoundedText } from "./personality_file.ts";
import { readFrontMatter, splitFrontMatter } from "../config/front_matter.ts";
import { folderEntries, isFolder, realPathOrUndefined } from "../config/quiet_stat.ts";
import { z } from "zod";
import { isPathInside } from "../core/protected_paths.ts";
import { lazyValue } from "../core/zod_issues.ts";

/** Context documents listed per personality at most. */
const maxContextDocuments = 50;
/** Characters of one context document `load_context` returns. */
export const maxContextChars = 16_000;

/** A listed context document and its file. */
export interface ContextDocumentFile extends PersonalityContextDocument {
  path: string;
}

/** The `context/*.md` files of a personality folder, sorted by name; links out are skipped. */
export function listContextDocuments(
  dir: string,
  warn?: (line: string) => void,
): ContextDocumentFile[] {
  const root = realPathOrUndefined(dir);
  const folder = join(dir, "context");
  if (!root) return [];
  const documents: ContextDocumentFile[] = [];
  for (const entry of folderEntries(folder).sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!entry.name.endsWith(".md") || documents.length >= maxContextDocuments) continue;
    const path = join(folder, entry.name);
    const real = realPathOrUndefined(path);
    if (!real || !isPathInside(real, root)) {
      warn?.(`${path}: leads out of the personality's folder (skipped)`);
      continue;
    }
    const read = readBoundedText(real);
    if ("error" in read) {
      warn?.(`${read.error} (skipped)`);
      continue;
    }
    const fileName = entry.name.slice(0, -3);
    const meta = contextMeta(read.text);
    const name = oneLine(meta.name ?? fileName, 64) || fileName;
    if (documents.some((document) => document.name === name)) continue;
    documents.push({ name, description: oneLine(meta.description ?? fileName, 160), path });
  }
  return documents;
}

/** A context document's body (front matter removed), or a one-line problem. */
export function readContextDocument(
  dir: string,
  documents: readonly ContextDocumentFile[],
  name: string,
): { text: string } | { error: string } {
  const names = documents.map((document) => document.name).join(", ") || "none";
  const document = documents.find((candidate) => candidate.name === name);
  if (!document) return { error: `No context document named "${name}". Documents: ${names}.` };
  const root = realPathOrUndefined(dir);
  const real = realPathOrUndefined(document.path);
  if (!root || !real) return { error: `Context document "${name}" is gone.` };
  // Checked again at read time: the file may have become a link since it was listed.
  if (!isPathInside(real, root)) {
    return { error: `Context document "${name}" leads out of its folder.` };
  }
  const read = readBoundedText(real);
  if ("error" in read) {
    return {
      error: `Cannot read context document "${name}" (at most ${
        maxPersonalityFileBytes / 1024
      } KiB).`,
    };
  }
  const body = (splitFrontMatter(read.text)?.body ?? read.text).trim();
  return {
    text: body.length > maxContextChars
      ? `${body.slice(0, maxContextChars)}\n[truncated: ${
        body.length - maxContextChars
      } more characters]`
      : body,
  };
}

/** The personality's `scripts/` and `assets/` folders that exist (paths for the prompt). */
export function resourceFolders(dir: string): string[] {
  const root = realPathOrUndefined(dir);
  if (!root) return [];
  return ["scripts", "assets"].flatMap((name) => {
    const real = realPathOrUndefined(join(dir, name));
    if (!real || !isPathInside(real, root)) return [];
    return isFolder(real) ? [`${join(dir, name)}/`] : [];
  });
}

/**
 * A context document's own name and description, when its front matter has them (the schema is
 * built on first use).
 */
const contextFrontMatter = lazyValue(() =>
  z.object({
    name: z.string().optional().catch(undefined),
    description: z.string().optional().catch(undefined),
  })
);

function contextMeta(text: string): { name?: string; description?: string } {
  const read = readFrontMatter(text, contextFrontMatter, "");
  return read.ok ? read.data : {};
}

function oneLine(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029<>]/g, " ").replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
