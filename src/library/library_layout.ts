/**
 * The library layout (`library.comics`, `library.documents` in radar.yaml): a path template such
 * as `~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz` filled from a file's metadata. Values
 * come from files and lookups (untrusted): each is cleaned so it can never add a folder, climb out
 * with `..`, hide the file or carry control characters, and the result must stay inside the
 * template's fixed folder. Pure.
 */

/** A rendered path, or why the template cannot be filled. */
export type LayoutResult =
  | { ok: true; path: string }
  | { ok: false; missing: string[] }
  | { ok: false; problem: string };

const placeholderPattern = /\{([A-Za-z][A-Za-z0-9_]*)(\?)?(?::(0+))?\}/g;
const maxValueChars = 120;
const maxNameBytes = 250;

/** The placeholders a template uses, in order (`Series`, `Number`, …). */
export function layoutFields(template: string): string[] {
  return [...template.matchAll(placeholderPattern)].map((match) => match[1]);
}

/** The template's fixed folder: everything before the folder the first placeholder is in. */
export function layoutRoot(template: string): string {
  const first = template.search(/\{/);
  const fixed = first < 0 ? template : template.slice(0, first);
  return fixed.slice(0, fixed.lastIndexOf("/") + 1);
}

/**
 * Fills `template` from `fields` (names match case-insensitively). A placeholder inside ( ) or
 * [ ], or written `{Name?}`, may be missing: its group disappears; any other missing one makes the
 * result `missing`. `{Number:000}` pads a number's whole part to three digits. With `extension`
 * (".cbr"), the file keeps that extension whatever the template ends with.
 */
export function renderLayout(
  template: string,
  fields: Record<string, string | undefined>,
  options: { extension?: string } = {},
): LayoutResult {
  const lookup = new Map<string, string>();
  for (const [name, value] of Object.entries(fields)) {
    const clean = value === undefined ? "" : cleanLayoutValue(value);
    if (clean) lookup.set(name.toLowerCase(), clean);
  }
  const missing = new Set<string>();
  const fill = (text: string, optional: boolean) =>
    text.replace(placeholderPattern, (_match, name: string, question, padding?: string) => {
      const value = lookup.get(name.toLowerCase());
      if (value === undefined) {
        if (!optional && !question) missing.add(name);
        return "";
      }
      return padding ? padNumber(value, padding.length) : value;
    });
  const root = layoutRoot(template);
  // Optional groups: ( … ) and [ … ] holding placeholders vanish when all of theirs are empty.
  const grouped = template.slice(root.length).replace(
    /\(([^()]*\{[^()]*)\)|\[([^[\]]*\{[^[\]]*)\]/g,
    (_match, round?: string, square?: string) => {
      const inner = round ?? square ?? "";
      const filled = fill(inner, true);
      const hadValue = layoutFields(inner).some((name) => lookup.has(name.toLowerCase()));
      if (!hadValue) return "";
      return round !== undefined ? `(${filled})` : `[${filled}]`;
    },
  );
  const rendered = fill(grouped, false);
  if (missing.size) return { ok: false, missing: [...missing] };
  const segments = rendered.split("/").map(tidySegment);
  if (segments.some((segment) => !segment || segment === "." || segment === "..")) {
    return { ok: false, problem: "the layout gives an empty folder or file name" };
  }
  let name = segments.pop()!;
  if (options.extension) name = withExtension(name, options.extension);
  name = fitName(name);
  return { ok: true, path: `${root}${[...segments, name].join("/")}` };
}

/**
 * One value made safe for a path segment: control characters dropped, `/` and `\` become `-`,
 * `:` becomes ` -`, characters other systems refuse (`<>"|?*`) dropped, no leading dots or dashes
 * (hidden files, `..`, options), no trailing dots or blanks, at most 120 characters.
 */
export function cleanLayoutValue(value: string): string {
  return value
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[\\/]/g, "-")
    .replace(/\s*:\s*/g, " - ")
    .replace(/[<>"|?*]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s\-–_]+/, "")
    .slice(0, maxValueChars)
    .replace(/[.\s]+$/, "");
}

function padNumber(value: string, width: number): string {
  const match = /^(\d+)(.*)$/.exec(value);
  return match ? `${match[1].padStart(width, "0")}${match[2]}` : value;
}

/** Blanks squeezed, dangling separators and empty brackets gone: `Saga #054 ()` → `Saga #054`. */
function tidySegment(segment: string): string {
  return segment
    .replace(/\(\s*\)|\[\s*\]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+(\.[A-Za-z0-9]+)$/, "$1")
    .replace(/^[\s\-–_.]+|[\s\-–_]+$/g, "")
    .replace(/\s+-(\s+-)+\s+/g, " - ");
}

function withExtension(name: string, extension: string): string {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${stem}${extension.startsWith(".") ? extension : `.${extension}`}`.toLowerCase() ===
      name.toLowerCase()
    ? name
    : `${stem}.${extension.replace(/^\./, "").toLowerCase()}`;
}

/** Cuts the stem so the name fits in `maxNameBytes` bytes of UTF-8, keeping the extension. */
function fitName(name: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).length <= maxNameBytes) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot) : "";
  let stem = dot > 0 ? name.slice(0, dot) : name;
  while (stem && encoder.encode(stem + extension).length > maxNameBytes) stem = stem.slice(0, -1);
  return `${stem.trim()}${extension}`;
}
