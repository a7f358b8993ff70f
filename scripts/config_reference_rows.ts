/**
 * The rows of the configuration reference: the config schema's JSON Schema (zod's own
 * `toJSONSchema`, input side, so defaults and bounds are exactly what the loader applies) walked
 * key by key into a dotted key, a type a person reads, a default and the `.describe()` text.
 */
import { z } from "zod";

/** The part of a JSON Schema node this walk reads. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxItems?: number;
}

/** One documented key. */
export interface ReferenceRow {
  /** Dotted, with `[]` for a list's entries: `money.rules[].match`. */
  key: string;
  type: string;
  /** As written in radar.yaml, or "required" / "unset". */
  defaultValue: string;
  /** The schema's `.describe()` text; "" when it has none. */
  description: string;
}

/** The JSON Schema of a zod schema as the config file is written (input side). */
export function schemaNode(schema: z.ZodType): SchemaNode {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as SchemaNode;
}

/** Every key under `node`, depth first, in the schema's order; `prefix` names the node itself. */
export function referenceRows(node: SchemaNode, prefix: string): ReferenceRow[] {
  const object = objectOf(node);
  if (object) {
    return Object.entries(object.properties ?? {}).flatMap(([name, child]) => {
      const key = prefix ? `${prefix}.${name}` : name;
      const required = object.required?.includes(name) ?? false;
      return [row(child, key, required), ...referenceRows(child, key)];
    });
  }
  if (node.type === "array" && node.items && objectOf(node.items)) {
    return referenceRows(node.items, `${prefix}[]`);
  }
  return [];
}

/** The object a node describes: itself, or the object of a nullable section. */
function objectOf(node: SchemaNode): SchemaNode | undefined {
  if (node.type === "object" && node.properties) return node;
  return node.anyOf?.find((option) => option.type === "object" && option.properties);
}

function row(node: SchemaNode, key: string, required: boolean): ReferenceRow {
  return {
    key,
    type: typeText(node),
    defaultValue: "default" in node ? defaultText(node.default) : required ? "required" : "unset",
    description: node.description ?? "",
  };
}

/** A type as a person writing radar.yaml reads it: "integer 1–100", "one of `a`, `b`", "URL". */
export function typeText(node: SchemaNode): string {
  if (node.anyOf) {
    const options = node.anyOf.map(typeText);
    const optional = options.filter((option) => option !== literal(""));
    if (optional.length < options.length) return `${listed(optional)} or empty`;
    return listed(options);
  }
  if (node.enum) return `one of ${node.enum.map(literal).join(", ")}`;
  if (node.const !== undefined) return literal(node.const);
  if (Array.isArray(node.type)) return listed(node.type.map((type) => typeText({ type })));
  switch (node.type) {
    case "string":
      return node.format === "uri" ? "URL" : "text";
    case "integer":
    case "number":
      return numberText(node);
    case "boolean":
      return "true/false";
    case "null":
      return "null";
    case "array": {
      const of = node.items && objectOf(node.items)
        ? "entries (below)"
        : typeText(node.items ?? {});
      return `list of ${of}${node.maxItems === undefined ? "" : `, at most ${node.maxItems}`}`;
    }
    case "object":
      if (node.properties) return "section";
      return typeof node.additionalProperties === "object"
        ? `map of names to ${typeText(node.additionalProperties)}`
        : "map";
    default:
      return "any";
  }
}

function numberText(node: SchemaNode): string {
  const integer = node.type === "integer";
  const name = integer ? "integer" : "number";
  const low = node.minimum ??
    (integer && node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
  // An integer without a maximum is bounded by zod at the largest safe integer: no real bound.
  const high = node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER
    ? node.maximum
    : undefined;
  if (low !== undefined && high !== undefined) return `${name} ${count(low)}–${count(high)}`;
  const bounds = [
    low !== undefined
      ? `≥ ${count(low)}`
      : node.exclusiveMinimum !== undefined
      ? `> ${count(node.exclusiveMinimum)}`
      : "",
    high !== undefined ? `≤ ${count(high)}` : "",
  ].filter(Boolean);
  return [name, bounds.join(", ")].filter(Boolean).join(" ");
}

/** 10000000 as "10,000,000"; small numbers as they are. */
function count(value: number): string {
  return Math.abs(value) >= 10_000 ? value.toLocaleString("en-US") : String(value);
}

/** "a", "a or b", "a, b or c". */
function listed(parts: string[]): string {
  return parts.length < 2
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}`;
}

/** A value in a code span: words bare, anything else as YAML would quote it. */
function literal(value: unknown): string {
  return `\`${yamlScalar(value)}\``;
}

function yamlScalar(value: unknown): string {
  if (typeof value === "string" && /^[A-Za-z_][\w.-]*$/.test(value)) return value;
  return JSON.stringify(value);
}

/** A default as written in radar.yaml; sections (objects) show none, their keys do. */
function defaultText(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return "";
  if (Array.isArray(value)) return `\`[${value.map(yamlScalar).join(", ")}]\``;
  return `\`${typeof value === "string" ? JSON.stringify(value) : String(value)}\``;
}
