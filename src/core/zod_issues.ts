/**
 * The one zod-issue formatter: "key.path: expected X, found Y" for config files, tool arguments,
 * plugin manifests and tests, skills and personalities alike. Also `lazyValue`, for the schemas a
 * process may never need (those that check a subprocess's or a service's answers), built on first
 * use so building them is not part of every start.
 */
import type { z } from "zod";

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

/** How an issue is described. */
export interface IssueOptions {
  /** What an empty path is called ("(top level)", "(arguments)", "front matter"). */
  root?: string;
  /** The input that was checked: adds ", found …" with the value at the issue's path. */
  input?: unknown;
  /** Keys whose value is never echoed (only its length is named). */
  secretKey?: RegExp;
  /** The keys allowed where an unknown key was found (adds "(known: …)"). */
  knownKeys?: (path: readonly PropertyKey[]) => readonly string[];
}

/** "a.b[0].c" (or the root's name for an empty path). */
function issuePath(issue: z.core.$ZodIssue, root = "(top level)"): string {
  return issue.path.map((key) => typeof key === "number" ? `[${key}]` : String(key))
    .join(".").replaceAll(".[", "[") || root;
}

/** zod's own wording (a schema's custom message is kept as written). */
const zodWording = /^(Invalid input|Invalid option|Too small|Too big|Unrecognized key)/;

/** "at least 1 character", "at most 50 items" for strings and lists, "at least 0" for numbers. */
function bound(issue: { origin: string }, words: string, limit: unknown): string {
  const one = String(limit) === "1";
  const unit = issue.origin === "string"
    ? one ? " character" : " characters"
    : issue.origin === "array" || issue.origin === "set"
    ? one ? " item" : " items"
    : "";
  return `expected ${words} ${String(limit)}${unit}`;
}

/** What the issue expected, in words ("expected number", "expected at most 2"). */
function expectation(issue: z.core.$ZodIssue): string {
  if (!zodWording.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return bound(issue, "at least", issue.minimum);
    case "too_big":
      return bound(issue, "at most", issue.maximum);
    case "unrecognized_keys":
      return `unknown key${issue.keys.length === 1 ? "" : "s"} ${
        issue.keys.map((key) => `"${key}"`).join(", ")
      }`;
    default:
      return issue.message.replace(/^Invalid input: /, "");
  }
}

/** Describes an issue with the key path, what was expected and (given the input) what was found. */
export function describeIssue(issue: z.core.$ZodIssue, options: IssueOptions = {}): string {
  const known = issue.code === "unrecognized_keys" ? options.knownKeys?.(issue.path) : undefined;
  const line = `${issuePath(issue, options.root)}: ${expectation(issue)}${
    known ? ` (known: ${known.join(", ")})` : ""
  }`;
  if (!("input" in options)) return line;
  const value = valueAt(options.input, issue.path);
  const secret = typeof value === "string" && options.secretKey !== undefined &&
    options.secretKey.test(String(issue.path.at(-1)));
  // A secret's value is never echoed (error lines land in terminals, logs and the dashboard).
  return `${line}, found ${
    secret ? `a secret of ${value.length} characters` : describeValue(value)
  }`;
}

/** Every issue of an error, described and joined with "; ". */
export function describeIssues(error: z.ZodError, options: IssueOptions = {}): string {
  return error.issues.map((issue) => describeIssue(issue, options)).join("; ");
}

/** A value built on its first use, then kept (a schema only some runs need). */
export function lazyValue<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
