/**
 * Finds keys in a raw config that the schema does not know (likely typos), each with the nearest
 * key the schema does know ("did you mean …"): the loader's warning and `radar doctor` both say it.
 */
import { distance } from "fastest-levenshtein";
import type { z } from "zod";

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: z.ZodType;
      shape?: Record<string, z.ZodType>;
      element?: z.ZodType;
      options?: z.ZodType[];
    };
  };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as unknown as ZodInternals;
  while (current._zod.def.innerType) {
    current = current._zod.def.innerType as unknown as ZodInternals;
  }
  return current as unknown as z.ZodType;
}

function definitionOf(schema: z.ZodType) {
  return (unwrap(schema) as unknown as ZodInternals)._zod.def;
}

/** One key the schema does not declare, with the nearest one it does (when one is near). */
export interface UnknownKey {
  /** Dotted path as written, e.g. `budget.tokens_per_day` or `watchers[0].patern`. */
  path: string;
  /** The known path meant, e.g. `budget.daily_tokens`. */
  suggestion?: string;
}

/** Returns dotted paths of keys in `raw` that `schema` does not declare. */
export function unknownKeys(schema: z.ZodType, raw: unknown): string[] {
  return findUnknownKeys(schema, raw).map((key) => key.path);
}

/** The keys in `raw` that `schema` does not declare, each with its nearest known key. */
export function findUnknownKeys(schema: z.ZodType, raw: unknown): UnknownKey[] {
  return walk(schema, raw, "", schema);
}

/** `a (did you mean b?), c`: the unknown keys as one list for a warning line. */
export function describeUnknownKeys(keys: readonly UnknownKey[]): string {
  return keys.map((key) =>
    key.suggestion ? `${key.path} (did you mean ${key.suggestion}?)` : key.path
  ).join(", ");
}

function walk(schema: z.ZodType, raw: unknown, prefix: string, root: z.ZodType): UnknownKey[] {
  const def = definitionOf(schema);
  if (def.type === "object" && def.shape && raw && typeof raw === "object" && !Array.isArray(raw)) {
    const found: UnknownKey[] = [];
    for (const [key, value] of Object.entries(raw)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const inner = def.shape[key];
      if (inner) {
        found.push(...walk(inner, value, path, root));
        continue;
      }
      const near = nearestKey(key, Object.keys(def.shape));
      const moved = near === undefined ? movedKey(key, root) : undefined;
      found.push({
        path,
        ...(near !== undefined
          ? { suggestion: prefix ? `${prefix}.${near}` : near }
          : moved !== undefined
          ? { suggestion: moved }
          : {}),
      });
    }
    return found;
  }
  if (def.type === "array" && def.element && Array.isArray(raw)) {
    return raw.flatMap((item, index) => walk(def.element!, item, `${prefix}[${index}]`, root));
  }
  return [];
}

/** Score at which a known key counts as meant (0 nothing alike, 1 the same). */
const nearEnough = 0.5;

/**
 * The known key most like `key`, when it is near enough: a typo (`modle` → `model`) by edit
 * distance, or the same words in another order or form (`tokens_per_day` → `daily_tokens`).
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = nearEnough;
  for (const candidate of known) {
    const score = likeness(key.toLowerCase(), candidate.toLowerCase());
    if (score > bestScore || (score === bestScore && best === undefined && score > 0)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** Edits between two spellings; two swapped neighbours (`modle`, `model`) count as one. */
function edits(a: string, b: string): number {
  const plain = distance(a, b);
  if (plain !== 2 || a.length !== b.length) return plain;
  const differ = [...a].flatMap((char, index) => char === b[index] ? [] : [index]);
  const [first, second] = differ;
  const swapped = differ.length === 2 && second === first + 1 && a[first] === b[second] &&
    a[second] === b[first];
  return swapped ? 1 : plain;
}

/** 0…1: the better of the spelling's likeness and the words' likeness. */
function likeness(a: string, b: string): number {
  const spelling = 1 - edits(a, b) / Math.max(a.length, b.length, 1);
  return Math.max(spelling, wordLikeness(words(a), words(b)));
}

function words(key: string): string[] {
  return key.split(/[_\-.]+/).filter(Boolean);
}

/** Two words alike: the same (1), a typo apart (0.9), or one a short form of the other (0.6). */
function wordMatch(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest >= 4 && edits(a, b) <= (longest >= 7 ? 2 : 1)) return 0.9;
  let common = 0;
  while (common < Math.min(a.length, b.length) && a[common] === b[common]) common++;
  return common >= 2 && common * 3 >= Math.min(a.length, b.length) * 2 ? 0.6 : 0;
}

/** Matched words over all the words of both keys (each word matched at most once). */
function wordLikeness(written: string[], known: string[]): number {
  const free = [...known];
  let score = 0;
  let matched = 0;
  for (const word of written) {
    let bestIndex = -1;
    let bestMatch = 0;
    free.forEach((candidate, index) => {
      const match = wordMatch(word, candidate);
      if (match > bestMatch) [bestIndex, bestMatch] = [index, match];
    });
    if (bestIndex < 0) continue;
    free.splice(bestIndex, 1);
    score += bestMatch;
    matched++;
  }
  const union = written.length + known.length - matched;
  return union ? score / union : 0;
}

/** The one full path elsewhere in the schema that ends in exactly `key` (a key in the wrong section). */
function movedKey(key: string, root: z.ZodType): string | undefined {
  const found: string[] = [];
  const visit = (schema: z.ZodType, prefix: string, depth: number) => {
    const def = definitionOf(schema);
    if (depth > 6) return;
    if (def.type === "object" && def.shape) {
      for (const [name, inner] of Object.entries(def.shape)) {
        const path = prefix ? `${prefix}.${name}` : name;
        if (name === key) found.push(path);
        visit(inner, path, depth + 1);
      }
    }
  };
  visit(root, "", 0);
  return found.length === 1 ? found[0] : undefined;
}
