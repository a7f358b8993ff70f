/**
 * ComicInfo.xml read and written with npm fast-xml-parser. A document type declaration is refused
 * before parsing (ComicInfo.xml never needs one, and DTD entities are how "billion laughs" bombs
 * grow), so only XML's own five entities and character references are decoded. Elements Radar does
 * not know (Pages, custom tags) are kept as they were when fields are updated.
 */
import {
  cleanFieldValue,
  type ComicInfo,
  comicInfoField,
  comicInfoFields,
} from "../../library/comic_info.ts";

/** A parsed ComicInfo.xml: its fields, the FrontCover page index, and the tree for rewriting. */
export interface ParsedComicInfo {
  info: ComicInfo;
  /** ComicInfo's `<Page Image="N" Type="FrontCover"/>`, when present. */
  frontCoverIndex?: number;
  tree: Record<string, unknown>;
}

type XmlModule = typeof import("fast-xml-parser");
let xml: XmlModule | undefined;

/** Loads fast-xml-parser (a literal import: only the document subprocess needs it). */
export async function loadXmlParser(): Promise<XmlModule> {
  return xml ??= await import("fast-xml-parser");
}

function loaded(): XmlModule {
  if (!xml) throw new Error("the XML parser is not loaded");
  return xml;
}

const parserOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: 20,
};

/** Parses ComicInfo.xml text; a DTD, a missing root or unreadable XML is an Error with one line. */
export function parseComicInfoXml(text: string): ParsedComicInfo {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new Error("ComicInfo.xml declares a DTD or entities; not read");
  }
  const document = new (loaded().XMLParser)(parserOptions).parse(text) as Record<string, unknown>;
  const rootName = Object.keys(document).find((key) => key.toLowerCase() === "comicinfo");
  const root = rootName ? document[rootName] : undefined;
  if (!root || typeof root !== "object") throw new Error("ComicInfo.xml has no ComicInfo element");
  const tree = root as Record<string, unknown>;
  const info: ComicInfo = {};
  for (const [key, value] of Object.entries(tree)) {
    const field = comicInfoField(key);
    if (!field || field !== key && info[field] !== undefined) continue;
    const text = textOf(value);
    if (text) info[field] = cleanFieldValue(field, text);
  }
  return { info, frontCoverIndex: frontCoverIndex(tree.Pages), tree };
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return textOf(value[0]);
  if (value && typeof value === "object" && "#text" in value) return textOf(value["#text"]);
  return undefined;
}

function frontCoverIndex(pages: unknown): number | undefined {
  const list = (pages as { Page?: unknown })?.Page;
  const items = Array.isArray(list) ? list : list ? [list] : [];
  for (const item of items.slice(0, 10_000)) {
    const page = item as Record<string, unknown>;
    if (String(page?.["@_Type"] ?? "").toLowerCase() !== "frontcover") continue;
    const index = Number(page["@_Image"]);
    if (Number.isInteger(index) && index >= 0) return index;
  }
  return undefined;
}

/** ComicInfo.xml text for `info`, keeping the unknown elements of `tree` (an earlier file). */
export function buildComicInfoXml(info: ComicInfo, tree: Record<string, unknown> = {}): string {
  const root: Record<string, unknown> = {
    "@_xmlns:xsd": "http://www.w3.org/2001/XMLSchema",
    "@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  };
  for (const [key, value] of Object.entries(tree)) {
    if (key.startsWith("@_")) root[key] = value;
  }
  for (const field of comicInfoFields) {
    if (info[field] !== undefined) root[field] = info[field];
  }
  for (const [key, value] of Object.entries(tree)) {
    if (key.startsWith("@_") || key === "#text" || comicInfoField(key)) continue;
    root[key] = value;
  }
  const builder = new (loaded().XMLBuilder)({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    format: true,
    indentBy: "  ",
    suppressEmptyNode: true,
    processEntities: true,
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build({ ComicInfo: root })}`;
}
