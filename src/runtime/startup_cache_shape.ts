/**
 * The shape a startup cache file must have before the quick start trusts it (light: no schema).
 * The config inside was validated when it was written; this only rejects files whose structure
 * was damaged or edited since, so that reading one can never crash a start.
 */
import type { StartupCache } from "./startup_cache.ts";

/** Config sections the quick start reads before the full runtime loads. */
const quickStartSections = [
  "radar",
  "llm",
  "memory",
  "tools",
  "notifications",
  "web",
  "hooks",
  "skills",
];

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCatalogTool(value: unknown): boolean {
  return isFields(value) && typeof value.name === "string" &&
    typeof value.description === "string" && typeof value.source === "string" &&
    isFields(value.parameters) &&
    (value.keywords === undefined ||
      Array.isArray(value.keywords) && value.keywords.every((word) => typeof word === "string"));
}

function isSkills(value: unknown): boolean {
  return isFields(value) && typeof value.stamp === "string" && Array.isArray(value.list) &&
    value.list.every((skill) =>
      isFields(skill) && typeof skill.name === "string" &&
      typeof skill.description === "string" && isFields(skill.requires) &&
      isStrings(skill.requires.bins) && isStrings(skill.requires.env)
    );
}

function isStrings(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** True when `value` is structured like a `StartupCache`. */
export function isStartupCache(value: unknown): value is StartupCache {
  if (!isFields(value) || !isFields(value.loaded) || !isFields(value.loaded.config)) return false;
  const { loaded } = value;
  const config = loaded.config as Fields;
  return typeof value.key === "string" && typeof value.plugins === "string" &&
    typeof value.quickStart === "boolean" && Array.isArray(value.tools) &&
    value.tools.every(isCatalogTool) && typeof loaded.dataDir === "string" &&
    (loaded.path === undefined || typeof loaded.path === "string") &&
    Array.isArray(loaded.warnings) && loaded.warnings.every((line) => typeof line === "string") &&
    quickStartSections.every((section) => isFields(config[section])) && isSkills(value.skills);
}
