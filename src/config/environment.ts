/** The environment variables that override config keys. */

/** Environment variables that override config keys. */
export const environmentOverrides: ReadonlyArray<[string, string[], "string" | "number"]> = [
  ["RADAR_LLM_BASE_URL", ["llm", "base_url"], "string"],
  ["RADAR_LLM_MODEL", ["llm", "model"], "string"],
  ["RADAR_LLM_PROVIDER", ["llm", "provider"], "string"],
  ["RADAR_LLM_API_KEY", ["llm", "api_key"], "string"],
  ["RADAR_LLM_EMBEDDING_MODEL", ["llm", "embedding_model"], "string"],
  ["RADAR_LLM_EMBEDDING_BASE_URL", ["llm", "embedding_base_url"], "string"],
  ...(["fast", "vision", "fallback"] as const).flatMap((role) =>
    (["model", "base_url", "provider", "api_key"] as const).map((key) =>
      [
        `RADAR_LLM_${role.toUpperCase()}_${key.toUpperCase()}`,
        ["llm", "models", role, key],
        "string",
      ] as [string, string[], "string"]
    )
  ),
  ["RADAR_NTFY_URL", ["notifications", "ntfy", "url"], "string"],
  ["RADAR_NTFY_TOPIC", ["notifications", "ntfy", "topic"], "string"],
  ["RADAR_NTFY_TOKEN", ["notifications", "ntfy", "token"], "string"],
  ["RADAR_WEB_AUTH_TOKEN", ["web", "auth_token"], "string"],
  ["RADAR_WEB_HOST", ["web", "host"], "string"],
  ["RADAR_WEB_PORT", ["web", "port"], "number"],
];

/** Sets `path` (e.g. ["llm", "api_key"]) in a config-shaped object, creating missing mappings. */
export function setConfigValue(
  root: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== "object") node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}
