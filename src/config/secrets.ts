/** The secret values of a configuration, to be redacted from every tool result and log. */
import type { RadarConfig } from "./schema.ts";

/** Every non-empty secret value in the config (API keys, tokens). */
export function configSecrets(config: RadarConfig): string[] {
  return [
    config.llm.api_key,
    config.notifications.ntfy.token,
    config.web.auth_token,
    config.tools.web_search.api_key,
    ...Object.values(config.llm.models).map((role) => role.api_key),
    ...runtimeSecrets,
  ].filter((value) => value.length > 0);
}

const runtimeSecrets = new Set<string>();

/** Remembers a secret read at run time (a mail password from password_cmd) for redaction. */
export function rememberRuntimeSecret(value: string): void {
  if (value.length >= 4) runtimeSecrets.add(value);
}
