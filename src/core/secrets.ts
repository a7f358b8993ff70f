/**
 * The one set of secrets a Radar knows: the config's secret values, plus every secret read since
 * start (a password from password_cmd, password_env or the keychain, a key from api_key_cmd).
 * Built once by the composition root and handed to the exits that mask what leaves Radar (tool
 * results, log lines, the audit trail, the event queue, the chat and embedding models): a secret
 * learned mid-run is masked everywhere from then on.
 *
 * The masking rules below remove secrets (known values, tokens in URLs, Authorization headers)
 * from text; `Secrets` applies them with the values it knows.
 */

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

/** Where a secret read at run time is reported (what a password reader needs of `Secrets`). */
export interface SecretKeeper {
  /** Remembers `value` (4 characters or more) as a secret from now on. */
  learn(value: string): void;
}

/** The known secrets and the masking of text with them. */
export class Secrets implements SecretKeeper {
  readonly #values = new Set<string>();

  /** `values`: the secrets known at start (the config's); empty ones are ignored. */
  constructor(values: Iterable<string> = []) {
    for (const value of values) if (value.length > 0) this.#values.add(value);
  }

  learn(value: string): void {
    if (value.length >= 4) this.#values.add(value);
  }

  /** Every secret known now, in the order they became known. */
  known(): readonly string[] {
    return [...this.#values];
  }

  /** Masks known secret values, URL credentials, secret parameters and auth headers. */
  mask(text: string): string {
    return redactText(text, this.known());
  }

  /** Masks known secret values only (text a person wrote, whose other parts must stay as is). */
  maskValues(text: string): string {
    return this.#values.size ? maskSecretValues(text, this.known()) : text;
  }

  /**
   * Masks known secret values in JSON text, also as JSON escapes them (a secret holding `"` or
   * `\` is written escaped there): tool-call arguments as the model sent them.
   */
  maskValuesInJson(text: string): string {
    if (!this.#values.size) return text;
    const known = this.known();
    const escaped = known.map((secret) => JSON.stringify(secret).slice(1, -1))
      .filter((inJson) => !known.includes(inJson));
    return maskSecretValues(text, [...known, ...escaped]);
  }

  /** Masks a tool call's arguments: secret-named JSON keys anywhere, then the text rules. */
  maskArguments(argumentsText: string): string {
    return redactArguments(argumentsText, this.known());
  }
}
