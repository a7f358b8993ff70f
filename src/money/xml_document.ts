/**
 * Statement XML through npm fast-xml-parser: validated first (a broken file is one line with its
 * line number), no DTD (no entity tricks), every value kept as text (an amount never becomes a
 * float), namespace prefixes dropped, the repeating elements always arrays.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { StatementProblem } from "./money.ts";
import { firstLine } from "../core/errors.ts";

/** A parsed element: text under "#text", attributes under "@Name", children by name. */
// deno-lint-ignore no-explicit-any
export type XmlNode = any;

/** How often an element starts in the text (counted before parsing, to refuse huge files fast). */
export function countElements(xml: string, name: string): number {
  let count = 0;
  const pattern = new RegExp(`<(?:[A-Za-z0-9_]+:)?${name}[\\s>]`, "g");
  while (pattern.exec(xml)) count++;
  return count;
}

/** Parses statement XML; `arrays` names the elements that may repeat. */
export function parseStatementXml(xml: string, arrays: readonly string[]): XmlNode {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml.slice(0, 4096)) || /<!ENTITY/i.test(xml)) {
    throw new StatementProblem("the XML declares a DTD or entities (not allowed in a statement)");
  }
  let valid: ReturnType<typeof XMLValidator.validate>;
  try {
    valid = XMLValidator.validate(xml);
  } catch (error) {
    throw new StatementProblem(
      `unreadable XML (${firstLine(error, 120)})`,
    );
  }
  if (valid !== true) {
    throw new StatementProblem(`not well-formed XML: ${valid.err.msg}`, valid.err.line);
  }
  const repeating = new Set(arrays);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: false,
    ignorePiTags: true,
    isArray: (name) => repeating.has(name),
  });
  try {
    return parser.parse(xml);
  } catch (error) {
    // Nesting past the parser's limit and the like: the file is bad, not Radar.
    throw new StatementProblem(
      `unreadable XML (${firstLine(error, 120)})`,
    );
  }
}

/** The text of an element (or of its "#text"), trimmed; "" when absent. */
export function textOf(node: XmlNode): string {
  if (node === undefined || node === null) return "";
  if (typeof node === "string") return node.trim();
  if (typeof node === "object" && typeof node["#text"] === "string") return node["#text"].trim();
  return "";
}

/** The element at a path of child names (the first of an array at each step). */
export function childAt(node: XmlNode, ...path: string[]): XmlNode {
  let current = node;
  for (const name of path) {
    if (current === undefined || current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[0] : current;
    current = Object.hasOwn(current, name) ? current[name] : undefined;
  }
  return Array.isArray(current) ? current[0] : current;
}

/** The elements named `name` under `node`, as a list. */
export function childrenOf(node: XmlNode, name: string): XmlNode[] {
  if (!node || typeof node !== "object" || !Object.hasOwn(node, name)) return [];
  const value = node[name];
  return Array.isArray(value) ? value : [value];
}
