/**
 * The config file as a backup keeps it: comments and layout intact, every secret value (keys
 * named like `token`, `api_key`, `password`, `secret`) blanked, and the keys that only point at a
 * secret kept elsewhere (`password_cmd`, `password_env`, `keychain`, `api_key_cmd`) listed.
 */
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { secretKeyPattern } from "../../config/mask_secrets.ts";

/** Keys whose values name where a secret lives (a command, a variable, the keychain). */
const referenceKeys = /^(password_cmd|password_env|keychain|api_key_cmd)$/;

/** The config text with secrets blanked, and which keys were blanked or only referenced. */
export interface ConfigWithoutSecrets {
  text: string;
  leftOut: string[];
  referenced: string[];
}

/** Blanks the secret values of a radar.yaml text (unparseable text is not archived at all). */
export function configWithoutSecrets(text: string): ConfigWithoutSecrets | undefined {
  const document = parseDocument(text);
  if (document.errors.length) return undefined;
  const leftOut: string[] = [];
  const referenced: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    }
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const keyPath = path ? `${path}.${key}` : key;
      const value = pair.value;
      if (secretKeyPattern.test(key) && isScalar(value) && String(value.value ?? "") !== "") {
        value.value = "";
        leftOut.push(keyPath);
      } else if (referenceKeys.test(key) && value !== null && !(isScalar(value) && !value.value)) {
        referenced.push(keyPath);
      } else {
        walk(value, keyPath);
      }
    }
  };
  walk(document.contents, "");
  return { text: document.toString(), leftOut, referenced };
}
