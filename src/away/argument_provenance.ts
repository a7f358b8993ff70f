/**
 * Positive provenance of a call's arguments: a part is derived from trusted text when the trusted
 * text holds it whole (exactly, with a letter or digit in it, never as a piece of a longer word,
 * number, path or address: "1" is not in "127.0.0.1", "" is in nothing), when it is a path inside a
 * folder the trusted text or the config names (in an argument that takes a path), when it is a URL
 * under an address the trusted text names (same origin, inside its folder; in an argument that
 * takes an address: text that merely starts with one is not one), or when it is the tool's own
 * vocabulary (a property name or an enum value of its schema, a yes/no). Everything else —
 * whatever it looks like, however it was encoded — is not.
 * Every part is read: object keys and values at any depth; past a size bound the whole call counts
 * as not derived (fails closed). Pure.
 */
import { originOf } from "../core/origins.ts";

/** A part of the arguments that is not derived from trusted text. */
export interface UnderivedPart {
  /** Where in the arguments ("url", "set.Series", "values.<key>"); never the value itself. */
  argument: string;
  /** not_derived: neither trusted text nor the tool's vocabulary holds it; too_large: not read. */
  reason: "not_derived" | "too_large";
}

/** What trusted text names: the texts, the folders and the web addresses in them. */
export interface TrustedPlaces {
  texts: readonly string[];
  /** Absolute, lexically normal folders (never `/` or the home folder itself). */
  folders: readonly string[];
  /** Web addresses: origin and the folder of the path ("https://a.example" + "/news/"). */
  urls: ReadonlyArray<{ origin: string; folder: string }>;
  home: string;
}

/** How far the check reads before it gives up (and counts the whole call as not derived). */
export const provenanceBounds = { maxParts: 20_000, maxChars: 4_000_000 };

const pathToken = /(?:^|[\s"'`(=])((?:~\/|\/)[^\s"'`<>|;,()]*)/g;
const urlToken = /\bhttps?:\/\/[^\s"'`<>()[\]{}]+/gi;

/** `~` expanded, `.` and `..` resolved, no doubled or trailing slash; undefined when relative. */
export function normalPath(path: string, home: string): string | undefined {
  const expanded = path === "~" ? home : path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
  if (!expanded.startsWith("/")) return undefined;
  const parts: string[] = [];
  for (const segment of expanded.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}

/** A place as a folder: cut before the first segment with a template or glob character. */
function staticFolder(place: string): string {
  const segments = place.split("/");
  const at = segments.findIndex((segment) => /[{}*?[\]]/.test(segment));
  return at < 0 ? place : segments.slice(0, at).join("/");
}

/** What `texts` name, for checking arguments against them. */
export function trustedPlaces(texts: readonly string[], home: string): TrustedPlaces {
  const homeFolder = normalPath(home, home) ?? "/";
  const folders = new Set<string>();
  const addFolder = (place: string) => {
    const folder = normalPath(staticFolder(place.replace(/[.,:;!?]+$/, "")), home);
    if (folder && folder !== "/" && folder !== homeFolder) folders.add(folder);
  };
  const urls: Array<{ origin: string; folder: string }> = [];
  for (const text of texts) {
    // A text that is one path (a config place, spaces and all) names that folder whole.
    if (/^(~\/|\/)[^\n]*$/.test(text.trim())) addFolder(text.trim());
    else for (const match of text.matchAll(pathToken)) addFolder(match[1]);
    for (const match of text.matchAll(urlToken)) {
      const origin = originOf(match[0]);
      if (!origin) continue;
      const path = new URL(match[0].replace(/[.,:;!?]+$/, "")).pathname;
      urls.push({ origin, folder: path.slice(0, path.lastIndexOf("/") + 1) || "/" });
    }
  }
  return { texts, folders: [...folders], urls, home: homeFolder };
}

/** A JSON Schema node as far as this check reads it. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/** The node and its union branches, flattened. */
function branches(schema: SchemaNode | undefined): SchemaNode[] {
  if (!schema || typeof schema !== "object") return [];
  return [
    schema,
    ...[...schema.anyOf ?? [], ...schema.oneOf ?? [], ...schema.allOf ?? []].flatMap(branches),
  ];
}

function vocabulary(schema: SchemaNode | undefined): unknown[] {
  return branches(schema).flatMap((
    node,
  ) => [...node.enum ?? [], ...("const" in node ? [node.const] : [])]);
}

function childSchema(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
  for (const node of branches(schema)) {
    if (node.properties?.[key]) return node.properties[key];
    if (node.additionalProperties && typeof node.additionalProperties === "object") {
      return node.additionalProperties;
    }
  }
  return undefined;
}

function itemSchema(schema: SchemaNode | undefined): SchemaNode | undefined {
  return branches(schema).find((node) => node.items)?.items;
}

function isPropertyName(schema: SchemaNode | undefined, key: string): boolean {
  return branches(schema).some((node) => node.properties && Object.hasOwn(node.properties, key));
}

/** What the check needs to know of the tool. */
export interface ProvenanceOptions {
  /** Top-level arguments that name files or folders. */
  pathArguments?: readonly string[];
  /** Top-level arguments that are web addresses. */
  urlArguments?: readonly string[];
  /** The tool's JSON Schema (its property names and enum values are its own vocabulary). */
  schema?: unknown;
  /** Names the tool gives to what it shows (`Tool.ownNames`): its own vocabulary too. */
  ownNames?: RegExp;
}

/** The parts of `args` that are not derived from the trusted places (empty: all are). */
export function underivedParts(
  args: unknown,
  trusted: TrustedPlaces,
  options: ProvenanceOptions = {},
): UnderivedPart[] {
  const paths = new Set(options.pathArguments ?? []);
  const addresses = new Set(options.urlArguments ?? []);
  const found: UnderivedPart[] = [];
  // Keys repeat (a list of objects): each text is looked up once.
  const looked = new Map<string, boolean>();
  const inText = (text: string) => {
    const known = looked.get(text);
    if (known !== undefined) return known;
    const normal = text.normalize("NFC");
    const found = options.ownNames?.test(text) ||
      trusted.texts.some((trustedText) => holdsWhole(trustedText, normal));
    if (text.length <= 200) looked.set(text, found);
    return found;
  };
  const stack: Array<{ value: unknown; at: string; top: string; schema?: SchemaNode }> = [
    { value: args, at: "", top: "", schema: options.schema as SchemaNode | undefined },
  ];
  let parts = 0;
  let chars = 0;
  while (stack.length) {
    const { value, at, top, schema } = stack.pop()!;
    if (++parts > provenanceBounds.maxParts) {
      return [{ argument: "(the whole call)", reason: "too_large" }];
    }
    const name = at || "(the arguments)";
    if (value === null || value === undefined || typeof value === "boolean") continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) =>
        stack.push({ value: item, at: below(at, `[${index}]`), top, schema: itemSchema(schema) })
      );
      continue;
    }
    if (typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        chars += key.length;
        const child = at ? below(at, `.${key}`) : key.slice(0, maxNameChars);
        if (!isPropertyName(schema, key) && !inText(key)) {
          found.push({ argument: at ? below(at, ".<key>") : "<key>", reason: "not_derived" });
        }
        stack.push({ value: inner, at: child, top: top || key, schema: childSchema(schema, key) });
      }
      if (chars > provenanceBounds.maxChars) break;
      continue;
    }
    const text = typeof value === "string" ? value : String(value);
    chars += text.length;
    if (chars > provenanceBounds.maxChars) break;
    if (vocabulary(schema).includes(value)) continue;
    if (inText(text)) continue;
    if (paths.has(top) && typeof value === "string" && insideFolder(value, trusted)) continue;
    if (addresses.has(top) && typeof value === "string" && underNamedAddress(value, trusted)) {
      continue;
    }
    found.push({ argument: name, reason: "not_derived" });
  }
  if (chars > provenanceBounds.maxChars) {
    return [{ argument: "(the whole call)", reason: "too_large" }];
  }
  return uniqueByArgument(found);
}

/** How much of a part's place is named (a deep one ends in "…"). */
const maxNameChars = 120;

/** The place of a part below `at` (named up to `maxNameChars`, then "…"). */
function below(at: string, step: string): string {
  if (at.endsWith("…")) return at;
  const next = `${at}${step}`;
  return next.length > maxNameChars ? `${next.slice(0, maxNameChars)}…` : next;
}

/** Each argument once, in the order of the arguments. */
function uniqueByArgument(found: UnderivedPart[]): UnderivedPart[] {
  const byArgument = new Map(found.map((part) => [part.argument, part]));
  return [...byArgument.values()].sort((a, b) => a.argument.localeCompare(b.argument));
}

/** A letter or a digit (a value made of none is not a word of anyone's). */
const wordCharacter = /[\p{L}\p{N}]/u;
/** Characters that join words into one longer word, number, path or address ("127.0.0.1"). */
const joiningCharacter = /^[._:/@+\-]$/;

/** The character before `at` (a whole code point), or "". */
function characterBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && at >= 2;
  return pair ? text.slice(at - 2, at) : text.slice(Math.max(0, at - 1), at);
}

/** The character at `at` (a whole code point), or "". */
function characterAt(text: string, at: number): string {
  const code = text.codePointAt(at);
  return code === undefined ? "" : String.fromCodePoint(code);
}

/**
 * True when `text` holds `value` whole: `value` has a letter or digit, and at one of its places in
 * `text` it does not go on into a longer word, number, path or address on either side (a word
 * character next to it, or a joining character followed by one: "0.1" in "127.0.0.1").
 */
export function holdsWhole(text: string, value: string): boolean {
  if (!wordCharacter.test(value)) return false;
  const startsWord = wordCharacter.test(characterAt(value, 0));
  const endsWord = wordCharacter.test(characterBefore(value, value.length));
  const goesOn = (next: string, beyond: () => string) =>
    wordCharacter.test(next) || (joiningCharacter.test(next) && wordCharacter.test(beyond()));
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    const before = characterBefore(text, at);
    if (
      startsWord &&
      goesOn(before, () => characterBefore(text, at - before.length))
    ) continue;
    const end = at + value.length;
    const after = characterAt(text, end);
    if (endsWord && goesOn(after, () => characterAt(text, end + after.length))) continue;
    return true;
  }
  return false;
}

/** A path inside (or equal to) a folder the trusted text or the config names. */
function insideFolder(path: string, trusted: TrustedPlaces): boolean {
  const normal = normalPath(path.trim(), trusted.home);
  if (!normal) return false;
  return trusted.folders.some((folder) => normal === folder || normal.startsWith(`${folder}/`));
}

/** A URL with the same origin as one the trusted text names, inside that address's folder. */
function underNamedAddress(text: string, trusted: TrustedPlaces): boolean {
  if (!/^https?:\/\//i.test(text.trim())) return false;
  const origin = originOf(text);
  if (!origin) return false;
  const path = new URL(text.trim()).pathname;
  return trusted.urls.some((url) => url.origin === origin && path.startsWith(url.folder));
}
