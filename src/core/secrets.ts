/**
 * The one set of secrets a Radar knows: the config's secret values, plus every secret read since
 * start (a password from password_cmd, password_env or the keychain, a key from api_key_cmd).
 * Built once by the composition root and handed to the exits that mask what leaves Radar (tool
 * results, log lines, the audit trail, the event queue, the chat and embedding models): a secret
 * learned mid-run is masked everywhere from then on.
 */
import { maskSecretValues, redactArguments, redactText } from "./redact.ts";

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
