/** Loads radar.yaml: lookup, YAML parsing, the `ollama:` alias, env overrides, validation. */
import "./zod_jitless.ts";
import { parseDocument } from "yaml";
import { ConfigError, firstLine } from "../core/errors.ts";
import { type ConfigFile, findConfigFile, type LookupOptions } from "./config_file.ts";
import { environmentOverrides, setConfigValue } from "./environment.ts";
import { dataDirectory, type Environment } from "./paths.ts";
import { configSchema, type RadarConfig } from "./schema.ts";
import { describeUnknownKeys, findUnknownKeys, type UnknownKey } from "./unknown_keys.ts";
import { describeIssue } from "../core/zod_issues.ts";
import { secretKeyPattern } from "./mask_secrets.ts";

/** A loaded configuration and where it came from. */
export interface LoadedConfig {
  config: RadarConfig;
  /** The file in use, or undefined when running on embedded defaults. */
  path?: string;
  dataDir: string;
  /** Non-fatal remarks (unknown keys, alias use). */
  warnings: string[];
  /** The unknown keys the warning names, each with its nearest known key (`radar doctor`). */
  unknownKeys?: UnknownKey[];
}

/** Inputs of the loader: the lookup's, injectable for tests. */
export type LoadOptions = LookupOptions;

/** Finds, parses and validates the configuration. Throws ConfigError (exit 2) when invalid. */
export function loadConfig(options: LoadOptions): LoadedConfig {
  return loadConfigFile(findConfigFile(options), options);
}

/** Parses and validates a config file already found (`findConfigFile`), as `loadConfig` does. */
export function loadConfigFile(
  { path, text }: ConfigFile,
  options: { env: Environment; cwd: string },
): LoadedConfig {
  const warnings: string[] = [];
  const raw = text === undefined ? {} : parseYaml(text, path!);
  const normalised = applyAlias(raw, warnings);
  return validateConfig(normalised, { path, env: options.env, cwd: options.cwd, warnings });
}

/** Validates a raw (already parsed) config object; used by the loader and the dashboard editor. */
export function validateConfig(
  raw: Record<string, unknown>,
  options: { path?: string; env: Environment; cwd: string; warnings?: string[] },
): LoadedConfig {
  const warnings = options.warnings ?? [];
  const where = options.path ?? "(defaults)";
  const unknown = findUnknownKeys(configSchema, raw);
  if (unknown.length) {
    warnings.push(`Unknown config keys in ${where} (typos?): ${describeUnknownKeys(unknown)}`);
  }
  const withEnv = applyEnvironment(structuredClone(raw), options.env);
  const parsed = configSchema.safeParse(withEnv);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `Invalid config ${where}: ${
        describeIssue(issue, { input: withEnv, secretKey: secretKeyPattern })
      }`,
    );
  }
  const config = parsed.data;
  if (!config.llm.provider) {
    config.llm.provider = /\/v1\/?$/.test(config.llm.base_url) ? "openai" : "ollama";
  }
  return {
    config,
    path: options.path,
    dataDir: dataDirectory(options.env, config.radar.data_dir, options.cwd),
    warnings,
    ...(unknown.length ? { unknownKeys: unknown } : {}),
  };
}

/** Parses YAML text to a mapping; a syntax error names the file and line. */
export function parseYaml(text: string, path: string): Record<string, unknown> {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length) {
    const error = document.errors[0];
    const line = error.linePos?.[0].line;
    const said = error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    // The parser's own stack overflow on a document nested thousands of levels deep.
    const firstLine = /call stack/i.test(said) ? "it is nested too deeply" : said;
    throw new ConfigError(`Invalid config ${path}${line ? `:${line}` : ""}: ${firstLine}`);
  }
  let value: unknown;
  try {
    // Aliases are capped: a "billion laughs" document expands exponentially.
    value = document.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    throw new ConfigError(
      `Invalid config ${path}: ${firstLine(error)} (too many YAML aliases?)`,
    );
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(
      `Invalid config ${path}: expected a mapping of sections, found ${typeName(value)}`,
    );
  }
  return value as Record<string, unknown>;
}

function applyAlias(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  if (!("ollama" in raw)) return raw;
  const { ollama, ...rest } = raw;
  if ("llm" in raw) {
    warnings.push("Both `ollama:` and `llm:` are set; `llm:` wins over the `ollama:` alias.");
    return { ...rest, llm: { ...(ollama as object), ...(raw.llm as object) } };
  }
  return { ...rest, llm: ollama };
}

function applyEnvironment(raw: Record<string, unknown>, env: Environment): Record<string, unknown> {
  for (const [name, path, type] of environmentOverrides) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    setConfigValue(raw, path, type === "number" && /^\d+$/.test(value) ? Number(value) : value);
  }
  return raw;
}

/** A short name of a value's type, as a user reads it. */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return typeof value;
}
