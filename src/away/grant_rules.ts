/**
 * Standing grants as rules: does a grant match a call (npm picomatch globs per argument; path
 * arguments compared as real paths, `~` and links resolved), is a new grant acceptable (never over
 * protected places or Radar's own state), and which grant "Always allow…" suggests for a call.
 * A grant only answers yes for the user; the tool still runs with its own path guard, sandbox
 * and plugin permissions, which no grant widens.
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import type {
  GrantCheck,
  GrantPathPolicy,
  GrantStore,
  NewStandingGrant,
  StandingGrant,
} from "./approval_ports.ts";
import type { Clock } from "../core/ports.ts";
import type { Tool } from "../core/tool.ts";
import { normalizeOrigin } from "../core/origins.ts";

/** The static folder a glob starts in and the glob below it ("~/Downloads" + "*.pdf"). */
function splitGlob(pattern: string): { base: string; glob: string } {
  const scanned = picomatch.scan(pattern);
  return { base: scanned.base || ".", glob: scanned.glob };
}

/** Matches one argument value against one pattern. */
function valueMatches(
  pattern: string,
  value: unknown,
  isPath: boolean,
  paths: GrantPathPolicy,
): boolean {
  if (value === undefined || value === null) return false;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (!isPath) return textMatches(pattern, text);
  const real = paths.canonical(text);
  const { base, glob } = splitGlob(pattern);
  const realBase = paths.canonical(base);
  if (!real || !realBase) return false;
  if (!glob) return real === realBase;
  const full = `${escapeGlob(realBase.replace(/\/+$/, ""))}/${glob}`;
  return picomatch.isMatch(real, full, { dot: false });
}

/**
 * True when every argument pattern of `grant` matches the call (other arguments are free, but for
 * what the tool's `grantScope` still asks of them).
 */
export function grantMatches(
  grant: Pick<StandingGrant, "tool" | "arguments">,
  tool: Tool,
  args: Record<string, unknown>,
  paths: GrantPathPolicy,
): boolean {
  if (grant.tool !== tool.name) return false;
  const pathArguments = new Set(tool.pathArguments ?? []);
  const patternsMatch = Object.entries(grant.arguments).every(([name, pattern]) =>
    valueMatches(pattern, args[name], pathArguments.has(name), paths)
  );
  if (!patternsMatch || !tool.grantScope) return patternsMatch;
  try {
    return tool.grantScope.covers(grant.arguments, args, textMatches);
  } catch {
    return false;
  }
}

/** Where a grant covers less than its patterns seem to say (the tool's `grantScope`). */
export function grantLimits(
  grant: Pick<StandingGrant, "arguments">,
  tool: Tool | undefined,
): string[] {
  try {
    return tool?.grantScope?.limits(grant.arguments, textMatches) ?? [];
  } catch {
    return [];
  }
}

/** One pattern against a value that is not a path. */
function textMatches(pattern: string, value: string): boolean {
  return picomatch.isMatch(value, pattern, { dot: true });
}

/** Glob characters escaped so the text matches only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\]/g, "\\$&");
}

/**
 * What is wrong with a grant, line by line (empty: acceptable). `tool` is the registry's tool of
 * that name, when known.
 */
export function grantProblems(
  grant: Pick<NewStandingGrant, "tool" | "arguments" | "privateDataTo">,
  tool: Tool | undefined,
  paths: GrantPathPolicy,
): string[] {
  const problems: string[] = [];
  if (!tool) return [`no tool is called "${grant.tool}" (radar tools lists them)`];
  for (const origin of grant.privateDataTo ?? []) {
    if (normalizeOrigin(origin) === undefined) {
      problems.push(
        `private data goes to origins (scheme, host and port, e.g. https://mycalendar.example), ` +
          `not "${origin}"`,
      );
    }
  }
  const entries = Object.entries(grant.arguments);
  // What the model is offered, and what a tool's own stored actions carry for grants to match
  // (a browser submission's target).
  const parameters = [
    ...new Set([
      ...Object.keys((tool.parameters.properties ?? {}) as Record<string, unknown>),
      ...tool.grantArguments ?? [],
    ]),
  ];
  if (!entries.length && parameters.length) {
    problems.push(
      `name at least one argument pattern (${tool.name} takes ${parameters.join(", ")})`,
    );
  }
  const pathArguments = new Set(tool.pathArguments ?? []);
  for (const [name, pattern] of entries) {
    if (parameters.length && !parameters.includes(name)) {
      problems.push(`${tool.name} has no argument "${name}" (it takes ${parameters.join(", ")})`);
      continue;
    }
    if (!pattern.trim()) problems.push(`${name}: the pattern is empty`);
    if (!pathArguments.has(name)) continue;
    if (!/^(~\/|\/)/.test(pattern)) {
      problems.push(`${name}: a path pattern starts with / or ~/ ("${pattern}")`);
      continue;
    }
    if (pattern.split("/").some((segment) => segment === ".." || segment === ".")) {
      problems.push(`${name}: no . or .. in a path pattern ("${pattern}")`);
      continue;
    }
    const { base } = splitGlob(pattern);
    const real = paths.canonical(base);
    const problem = real === undefined ? `cannot use the folder ${base}` : paths.problem(real);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  return problems;
}

/** The argument patterns "Always allow…" suggests for a call (the user may edit them). */
export function suggestGrant(
  tool: Tool,
  args: Record<string, unknown>,
  paths: GrantPathPolicy,
): Record<string, string> {
  const suggested: Record<string, string> = {};
  const pathArguments = tool.pathArguments ?? [];
  if (pathArguments.length) {
    for (const name of pathArguments) {
      const value = args[name];
      if (typeof value !== "string") continue;
      const real = paths.canonical(value) ?? value;
      const slash = real.lastIndexOf("/");
      const folder = escapeGlob(paths.display(slash > 0 ? real.slice(0, slash) : "/"));
      const extension = /\.[A-Za-z0-9]{1,8}$/.exec(real)?.[0];
      suggested[name] = /^(source|from)$/.test(name) && extension
        ? `${folder}/*${extension}`
        : `${folder}/**`;
    }
    return suggested;
  }
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== "string") continue;
    if (tool.grantArguments && !tool.grantArguments.includes(name)) continue;
    const url = /^https?:\/\/[^/\s?#]+/i.exec(value)?.[0];
    if (url) suggested[name] = `${escapeGlob(url)}/**`;
    else if (value.length <= 40 && !value.includes("\n")) suggested[name] = escapeGlob(value);
  }
  return suggested;
}

/** Where the matcher finds grants and records their use. */
export interface GrantMatcherOptions {
  store?: GrantStore;
  /** radar.yaml's `grants:` rules (read live). */
  configured: () => readonly NewStandingGrant[];
  paths: GrantPathPolicy;
  clock: Clock;
}

/** Every grant: radar.yaml's rules ("config:1", …) then the stored ones. */
export function allGrants(
  options: Pick<GrantMatcherOptions, "store" | "configured">,
): StandingGrant[] {
  const configured = options.configured().map((grant, index): StandingGrant => ({
    id: `config:${index + 1}`,
    tool: grant.tool,
    arguments: grant.arguments,
    note: grant.note,
    privateDataTo: grant.privateDataTo ?? [],
    origin: "config",
  }));
  return [...configured, ...options.store?.list() ?? []];
}

/** True when `grant` lets private data go to every one of `origins` (compared exactly). */
export function coversPrivateData(
  grant: Pick<StandingGrant, "privateDataTo">,
  origins: readonly string[],
): boolean {
  const allowed = new Set(grant.privateDataTo.map((origin) => normalizeOrigin(origin) ?? origin));
  return origins.every((origin) => allowed.has(origin));
}

/**
 * The grant check the agent loop asks: the first grant that matches the call and passes the rules
 * now (a grant whose folder became protected, or a config rule that breaks them, never matches);
 * with `privateDataTo`, the first that also lets private data go to each of those origins.
 */
export function grantCheck(options: GrantMatcherOptions): GrantCheck {
  return (tool, args, privateDataTo) => {
    for (const grant of allGrants(options)) {
      if (privateDataTo && !coversPrivateData(grant, privateDataTo)) continue;
      if (!grantMatches(grant, tool, args, options.paths)) continue;
      if (grantProblems(grant, tool, options.paths).length) continue;
      if (grant.origin === "user") options.store?.recordUse(grant.id, options.clock.now());
      return grant;
    }
    return undefined;
  };
}

/**
 * A grant in one line: `move_file source=~/Downloads/*.pdf destination=~/Filed/**`, and what it
 * lets private data do: `… private-data-to=https://mycalendar.example`.
 */
export function describeGrant(
  grant: Pick<StandingGrant, "tool" | "arguments"> & Partial<Pick<StandingGrant, "privateDataTo">>,
): string {
  const patterns = Object.entries(grant.arguments).map(([name, pattern]) => `${name}=${pattern}`);
  const privateData = grant.privateDataTo?.length
    ? [`private-data-to=${grant.privateDataTo.join(",")}`]
    : [];
  return [grant.tool, ...patterns, ...privateData].join(" ");
}
