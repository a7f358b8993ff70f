/**
 * The config file as a backup keeps it: its layout, with no secret-shaped value and no comments
 * (a comment can hold anything, an old key commented out included). Blanked: every value of a key
 * named like a credential (`token`, `api_key`, `password`, `secret`) and the ntfy topic (whoever
 * knows it reads the notifications); cut: every URL to its origin (`secret_shapes.ts`),
 * the values of command-line options named like a credential. Keys that only point at a secret
 * kept elsewhere (`password_cmd`, `password_env`, `keychain`, `api_key_cmd`) are listed as such.
 */
import { isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import { secretKeyPattern } from "../../config/mask_secrets.ts";
import { argvWithoutSecrets, urlsToOrigins } from "./secret_shapes.ts";

/** Keys whose values name where a secret lives (a command, a variable, the keychain). */
const referenceKeys = /^(password_cmd|password_env|keychain|api_key_cmd)$/;

/** Keys whose whole value is a credential. */
const credentialKey = (key: string) => secretKeyPattern.test(key) || key === "topic";

/** The config text without secrets, and which keys were blanked or cut, or only referenced. */
export interface ConfigWithoutSecrets {
  text: string;
  /** Keys whose value was blanked or cut (to be re-entered after a restore). */
  leftOut: string[];
  referenced: string[];
}

/** Blanks the secret-shaped values of a radar.yaml text (unparseable text is not archived). */
export function configWithoutSecrets(text: string): ConfigWithoutSecrets | undefined {
  const document = parseDocument(text);
  if (document.errors.length) return undefined;
  const leftOut: string[] = [];
  const referenced: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (isSeq(node)) {
      const words = node.items.every((item) => isScalar(item) && typeof item.value === "string");
      if (words && node.items.length) {
        const scalars = node.items as Array<{ value: unknown }>;
        const cleaned = argvWithoutSecrets(scalars.map((item) => String(item.value)));
        if (cleaned.cut) {
          scalars.forEach((item, index) => item.value = cleaned.argv[index]);
          leftOut.push(path);
        }
        return;
      }
      node.items.forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    }
    if (isScalar(node) && typeof node.value === "string") {
      const cleaned = urlsToOrigins(node.value);
      if (cleaned.cut) {
        node.value = cleaned.text;
        leftOut.push(path);
      }
      return;
    }
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const keyPath = path ? `${path}.${key}` : key;
      const value = pair.value;
      if (credentialKey(key) && isScalar(value) && String(value.value ?? "") !== "") {
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
  document.commentBefore = null;
  document.comment = null;
  visit(document, {
    Node(_, node) {
      node.commentBefore = null;
      node.comment = null;
    },
  });
  return { text: document.toString(), leftOut, referenced };
}
