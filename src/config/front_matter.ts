/**
 * The one front-matter reader for files users write in Markdown (SKILL.md, personalities): a
 * `---` block of YAML (npm yaml) at the top, checked with a zod schema, then the body. Problems are
 * one line naming the file and the key. The files bundled with Radar, read on every start, are
 * checked ahead (src/config/bundled_front_matter.ts): their exact YAML text gives what the
 * reader's schema gave for it, so a start parses no YAML and builds no schema.
 */
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { describeIssue, type IssueOptions } from "../core/zod_issues.ts";
import { firstLine } from "../core/errors.ts";

/** Splits `---\nYAML\n---\nbody` (the YAML may be empty); undefined without front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const match = /^\uFEFF?---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? { yaml: match[1] ?? "", body: text.slice(match[0].length) } : undefined;
}

/** A file's front matter and body, or the one line that says what is wrong with it. */
export type FrontMatterResult<T> =
  | { ok: true; data: T; body: string; hasFrontMatter: boolean }
  | { ok: false; problem: string };

/** How a reader reads front matter besides its schema. */
export interface FrontMatterOptions {
  /** What a `---` block must hold, when a file without one is a problem. */
  missing?: string;
  knownKeys?: IssueOptions["knownKeys"];
  /**
   * The bundled files' front matter checked ahead with this reader's schema: exact YAML text →
   * the schema's output (a table in src/config/bundled_front_matter.ts). Other text is checked.
   */
  checkedAhead?: ReadonlyMap<string, unknown>;
}

/**
 * Reads the front matter of `text` against the schema `schema` builds (called when the front
 * matter is not checked ahead). Without a `---` block the data is the schema applied to `{}` (a
 * problem when the schema needs keys: `missing` says what a block must hold).
 */
export function readFrontMatter<S extends z.ZodType>(
  text: string,
  schema: () => S,
  where: string,
  options: FrontMatterOptions = {},
): FrontMatterResult<z.output<S>> {
  const parts = splitFrontMatter(text);
  if (!parts && options.missing) return { ok: false, problem: `${where}: ${options.missing}` };
  if (parts && options.checkedAhead?.has(parts.yaml)) {
    // A copy: a caller changing what it got does not change the table.
    const data = structuredClone(options.checkedAhead.get(parts.yaml)) as z.output<S>;
    return { ok: true, data, body: parts.body, hasFrontMatter: true };
  }
  let raw: unknown = {};
  try {
    if (parts?.yaml.trim()) raw = parseYaml(parts.yaml) ?? {};
  } catch (error) {
    return {
      ok: false,
      problem: `${where}: front matter is not YAML (${firstLine(error)})`,
    };
  }
  const parsed = schema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: `${where}: ${
        describeIssue(issue, { root: "front matter", knownKeys: options.knownKeys })
      }`,
    };
  }
  return { ok: true, data: parsed.data, body: parts ? parts.body : text, hasFrontMatter: !!parts };
}
