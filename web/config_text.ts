/**
 * Secret handling for the in-browser radar.yaml editor. The file's text is sent with every
 * secret value (keys ending in token, api_key, password, secret) replaced by a placeholder;
 * on save, placeholders left unchanged get the current file's value back. Both edits splice
 * only the secret scalars' source ranges, so comments and formatting stay byte for byte.
 */
import { isMap, isScalar, isSeq, type Node, parseDocument } from "yaml";
import { secretKeyPattern } from "../src/config/mask_secrets.ts";
import { ConfigError } from "../src/core/errors.ts";

/** What a secret looks like in the browser. */
const secretPlaceholder = "********";

interface SecretScalar {
  path: Array<string | number>;
  value: string;
  /** The scalar exactly as written (quotes included). */
  source: string;
  start: number;
  end: number;
}

function secretScalars(text: string): SecretScalar[] {
  const document = parseDocument(text);
  if (document.errors.length) {
    throw new ConfigError(`Cannot edit the config: ${document.errors[0].message.split("\n")[0]}`);
  }
  const found: SecretScalar[] = [];
  const walk = (node: Node | null | undefined, path: Array<string | number>) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const value = pair.value as Node | null;
        if (
          secretKeyPattern.test(key) && isScalar(value) && typeof value.value === "string" &&
          value.value && value.range
        ) {
          found.push({
            path: [...path, key],
            value: value.value,
            source: text.slice(value.range[0], value.range[1]),
            start: value.range[0],
            end: value.range[1],
          });
        } else walk(value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item as Node, [...path, index]));
    }
  };
  walk(document.contents as Node, []);
  return found;
}

function splice(
  text: string,
  edits: Array<{ start: number; end: number; replacement: string }>,
): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.replacement + out.slice(edit.end);
  }
  return out;
}

/** The text with every non-empty secret value replaced by the placeholder. */
export function maskSecretsInYaml(text: string): string {
  return splice(
    text,
    secretScalars(text).map((secret) => ({
      ...secret,
      replacement: JSON.stringify(secretPlaceholder),
    })),
  );
}

/**
 * Puts the current file's secrets back where the submitted text still has the placeholder.
 * Throws ConfigError when a placeholder has no current value to restore.
 */
export function restoreSecretsInYaml(submitted: string, current: string | undefined): string {
  const masked = secretScalars(submitted).filter((secret) => secret.value === secretPlaceholder);
  if (!masked.length) return submitted;
  const originals = new Map(
    (current === undefined ? [] : secretScalars(current)).map((
      secret,
    ) => [secret.path.join("."), secret.source]),
  );
  return splice(
    submitted,
    masked.map((secret) => {
      const original = originals.get(secret.path.join("."));
      if (original === undefined) {
        throw new ConfigError(
          `Cannot save the config: ${
            secret.path.join(".")
          } is "${secretPlaceholder}"; type the real value`,
        );
      }
      return { ...secret, replacement: original };
    }),
  );
}
