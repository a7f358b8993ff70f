/** The secret values of a configuration, to be redacted from every tool result and log. */
import type { RadarConfig } from "./schema.ts";

/** Every non-empty secret value in the config (API keys, tokens). */
export function configSecrets(config: RadarConfig): string[] {
  return [
    config.llm.api_key,
    config.notifications.ntfy.token,
    config.web.auth_token,
    config.tools.web_search.api_key,
    config.library.comicvine.api_key,
    ...Object.values(config.llm.models).map((role) => role.api_key),
    ...runtimeSecrets,
  ].filter((value) => value.length > 0);
}

const runtimeSecrets = new Set<string>();

/**
 * Every secret known now: the config's and each one obtained since (read again on every call, so
 * a password read later by password_cmd or the keychain is redacted from then on).
 */
export function liveSecrets(config: RadarConfig): () => string[] {
  const fixed = configSecrets(config).filter((value) => !runtimeSecrets.has(value));
  return () => [...fixed, ...runtimeSecrets];
}

/**
 * Remembers a secret read at run time (a password from password_cmd, an environment variable or
 * the keychain): from now on it is redacted from log lines, audit rows and tool results.
 */
export function rememberRuntimeSecret(value: string): void {
  if (value.length >= 4) runtimeSecrets.add(value);
}
