/**
 * One personality file as text: the YAML front matter (npm yaml, checked with zod) and the body.
 * A file without front matter is all body. A bad front matter is one readable line naming the
 * file, never a stack trace.
 */
import { z } from "zod";
import { readFrontMatter } from "../config/front_matter.ts";
import { bundledPersonalityFrontMatter } from "../config/bundled_front_matter.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { firstLine } from "../core/errors.ts";

/** Personality names: what `create`, `use` and the dashboard accept. */
export const personalityNamePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Largest personality, context document or plugin personality file read (bytes). */
export const maxPersonalityFileBytes = 64 * 1024;

/**
 * The front matter a personality may carry, built on first use: the bundled personalities' front
 * matter is checked ahead (`bundledPersonalityFrontMatter`), so a start with only those builds no
 * schema.
 */
export const personalityFrontMatter = lazyValue(() => {
  const toolPatterns = z.array(z.string().trim().min(1).max(100)).max(100);
  return z.object({
    name: z.string().trim().max(64).optional(),
    description: z.string().trim().max(300).optional(),
    /** A role of `llm.models` (main, fast, vision, fallback) or a model name on the main server. */
    model: z.string().trim().min(1).max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    tools: z.object({ include: toolPatterns.optional(), exclude: toolPatterns.optional() }).strict()
      .optional(),
  }).strict();
});

/** Parsed front matter. */
export type PersonalityFrontMatter = z.output<ReturnType<typeof personalityFrontMatter>>;

/** A parsed personality file: its settings and its body (front matter removed). */
export interface ParsedPersonality {
  frontMatter: PersonalityFrontMatter;
  body: string;
}

/** Parses a personality's text; a bad front matter gives one line (`where` names the file). */
export function parsePersonality(text: string, where: string): ParsedPersonality | string {
  const parsed = readFrontMatter(text, personalityFrontMatter, where, {
    knownKeys: (path) =>
      path.length ? ["include", "exclude"] : Object.keys(personalityFrontMatter().shape),
    checkedAhead: bundledPersonalityFrontMatter,
  });
  if (!parsed.ok) return parsed.problem;
  return { frontMatter: parsed.data, body: parsed.body.trim() };
}

/** Reads a file of at most `maxPersonalityFileBytes`; a problem is one line. */
export function readBoundedText(path: string): { text: string } | { error: string } {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return { error: `${path}: not a file` };
    if (info.size > maxPersonalityFileBytes) {
      return { error: `${path}: larger than ${maxPersonalityFileBytes / 1024} KiB` };
    }
    return { text: Deno.readTextFileSync(path) };
  } catch (error) {
    return { error: `${path}: ${firstLine(error)}` };
  }
}

/** The description a listing shows: front matter, else the body's first line. */
export function describePersonality(parsed: ParsedPersonality): string {
  if (parsed.frontMatter.description) return parsed.frontMatter.description;
  const first = parsed.body.split("\n").find((line) => line.trim()) ?? "";
  const plain = first.replace(/^#+\s*/, "").trim();
  return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
}
