/** Removes secrets (known values, tokens in URLs, Authorization headers) from text. */

const mask = "********";

const secretName =
  /^(token|access_token|api[_-]?key|apikey|key|password|passwd|secret|auth|authorization|sig|signature|x-subscription-token|client_secret)$/i;

/** Names of JSON keys and URL parameters whose values are secrets. */
function isSecretName(name: string): boolean {
  return secretName.test(name) || /(token|secret|password|api_key|apikey)$/i.test(name);
}

/**
 * Replaces every occurrence of a known secret value (4 characters or more) with "********" and
 * nothing else: for text the user wrote (the system prompt), which the generic rules would alter.
 */
export function maskSecretValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(mask);
  }
  return out;
}

/**
 * Replaces every occurrence of a known secret value, URL credentials, secret query
 * parameters and Authorization/Bearer values with "********".
 *
 * @example
 * redactText("GET https://x/?token=abc", []) // "GET https://x/?token=********"
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = maskSecretValues(text, secrets);
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${mask}@`);
  out = out.replace(
    /([?&;]([a-z0-9_.-]+)=)([^&#\s"']+)/gi,
    (all, prefix: string, name: string) => isSecretName(name) ? `${prefix}${mask}` : all,
  );
  out = out.replace(
    /\b(authorization|x-subscription-token|x-api-key)(\s*[:=]\s*"?)[^"\n]+/gi,
    `$1$2${mask}`,
  );
  out = out.replace(/\b(bearer|basic)\s+[a-z0-9._~+/=-]{8,}/gi, `$1 ${mask}`);
  return out;
}

/** Redacts a tool call's arguments: secret-named keys anywhere in the JSON, then the text rules. */
export function redactArguments(argumentsText: string, secrets: readonly string[] = []): string {
  let text = argumentsText;
  try {
    const parsed = JSON.parse(argumentsText);
    text = JSON.stringify(redactValue(parsed));
  } catch {
    /* not JSON: text rules only */
  }
  return redactText(text, secrets);
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = isSecretName(key) && typeof inner === "string" && inner
        ? mask
        : redactValue(inner);
    }
    return out;
  }
  return value;
}
