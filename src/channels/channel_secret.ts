/**
 * A channel's secret (Telegram's token, Matrix's access token or password, the SMTP password):
 * the plain value, or `<key>_cmd`, `<key>_env` or `keychain`, read the way email accounts'
 * passwords are (src/adapters/os/account_secrets.ts: no shell, a timeout, reported to `Secrets`).
 */
import { readPassword, type ReadPasswordOptions } from "../adapters/os/account_secrets.ts";
import type { KeychainItem } from "../adapters/os/keychain.ts";

/** A config section holding `key`, `key_cmd`, `key_env` and perhaps `keychain`. */
export type SecretEntry = Record<string, unknown> & { keychain?: KeychainItem };

/** True when any of `key`'s sources is set (the keychain counts for `withKeychain` only). */
export function hasSecret(entry: SecretEntry, key: string, withKeychain = true): boolean {
  return [entry[key], entry[`${key}_cmd`], entry[`${key}_env`]].some((value) =>
    typeof value === "string" && value !== ""
  ) || (withKeychain && entry.keychain !== undefined);
}

/** Reads the secret `key` of `entry` ("" when none is set); throws one line naming `label`. */
export async function readChannelSecret(
  entry: SecretEntry,
  key: string,
  label: string,
  options: ReadPasswordOptions,
  withKeychain = true,
): Promise<string> {
  const plain = entry[key];
  if (typeof plain === "string" && plain !== "") return plain;
  return await readPassword(
    {
      password_cmd: String(entry[`${key}_cmd`] ?? ""),
      password_env: String(entry[`${key}_env`] ?? ""),
      keychain: withKeychain ? entry.keychain : undefined,
    },
    label,
    options,
  );
}
