/** Turns one zod issue into "key.path: expected X, found Y". */
import type { z } from "zod";
import { secretKeyPattern } from "./mask_secrets.ts";

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    return `"${value.length > 60 ? value.slice(0, 57) + "..." : value}"`;
  }
  return `${typeof value} ${String(value)}`;
}

/** Describes an issue with the key path, what was expected and what was found. */
export function describeConfigIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path.map((key) => typeof key === "number" ? `[${key}]` : String(key))
    .join(".").replaceAll(".[", "[") || "(top level)";
  const value = valueAt(raw, issue.path);
  const secret = typeof value === "string" && secretKeyPattern.test(String(issue.path.at(-1)));
  // A secret's value is never echoed (error lines land in terminals, logs and the dashboard).
  const found = secret ? `a secret of ${value.length} characters` : describeValue(value);
  let expected = issue.message.replace(/^Invalid input: /, "");
  if (issue.code === "invalid_type") expected = `expected ${issue.expected}`;
  if (issue.code === "invalid_value") {
    expected = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (issue.code === "too_small") expected = `expected at least ${String(issue.minimum)}`;
  if (issue.code === "too_big") expected = `expected at most ${String(issue.maximum)}`;
  if (issue.code === "unrecognized_keys") expected = `unknown keys ${issue.keys.join(", ")}`;
  return `${path}: ${expected}, found ${found}`;
}
