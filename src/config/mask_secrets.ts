/** Masks secret values (tokens, keys, passwords) before config is shown anywhere. */

/** Config keys whose values are secrets (tokens, API keys, passwords): masked everywhere. */
export const secretKeyPattern = /(token|api_key|password|secret)$/i;

/** Returns a deep copy with every non-empty secret replaced by "********". */
export function maskSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(maskSecrets) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = secretKeyPattern.test(key) && typeof inner === "string" && inner
        ? "********"
        : maskSecrets(inner);
    }
    return out as T;
  }
  return value;
}
