/**
 * The one front-matter reader for files users write in Markdown (SKILL.md, personalities): a
 * `---` block of YAML (npm yaml) at the top, checked with a zod schema, then the body. Problems are
 * one line naming the file and the key.
 */
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { describeIssue, type IssueOptions } from "../core/zod_issues.ts";
import { firstLine } from "../core/errors.ts";
import { bundledFrontMatter } from "./bundled_front_matter.ts";

/**
 * npm yaml's `parse` of `yaml`; for the files bundled with Radar, read on every start, the value
 * it gave ahead of time (the same text parses to the same value), so a start parses no YAML.
 */
function parsedYaml(yaml: string): unknown {
  return bundledFrontMatter.has(yaml)
    ? structuredClone(bundledFrontMatter.get(yaml))
    : parseYaml(yaml);
}

/** Splits `---\nYAML\n---\nbody` (the YAML may be empty); undefined without front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const match = /^\uFEFF?---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? { yaml: match[1] ?? "", body: text.slice(match[0].length) } : undefined;
}

/** A file's front matter and body, or the one line that says what is wrong with it. */
export type FrontMatterResult<T> =
  | { ok: true; data: T; body: string; hasFrontMatter: boolean }
  | { ok: false; problem: string };

/**
 * Reads the front matter of `text` against `schema`. Without a `---` block the data is the schema
 * applied to `{}` (a problem when the schema needs keys: `missing` says what a block must hold).
 */
export function readFrontMatter<S extends z.ZodType>(
  text: string,
  schema: S,
  where: string,
  options: { missing?: string; knownKeys?: IssueOptions["knownKeys"] } = {},
): FrontMatterResult<z.output<S>> {
  const parts = splitFrontMatter(text);
  if (!parts && options.missing) return { ok: false, problem: `${where}: ${options.missing}` };
  let raw: unknown = {};
  try {
    if (parts?.yaml.trim()) raw = parsedYaml(parts.yaml) ?? {};
  } catch (error) {
    return {
      ok: false,
      problem: `${where}: front matter is not YAML (${firstLine(error)})`,
    };
  }
  const parsed = schema.safeParse(raw);
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
