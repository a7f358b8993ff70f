/**
 * A chat channel's secret as `radar doctor` checks it: read through the channels' own code
 * (`readChannelSecret`: the value, `<key>_cmd`, `<key>_env` or the keychain), or one verdict
 * naming the key that did not give it, with the fix.
 */
import { readChannelSecret, type SecretEntry } from "../channels/channel_secret.ts";
import type { SecretKeeper } from "../core/secrets.ts";
import { firstLine } from "../core/errors.ts";
import { type Verdict, verdict } from "./verdict.ts";

/** What reading a secret needs. */
export interface SecretReading {
  env: Record<string, string | undefined>;
  /** Told every secret read (the runtime's `Secrets`: the report masks them). */
  secrets: SecretKeeper;
  timeoutMs: number;
}

/** One secret of a channel: where it is configured and what it is. */
export interface SecretPlace {
  /** The verdict's check (the channel's name). */
  check: string;
  /** The config section holding it, as a person finds it: `channels.telegram`. */
  section: string;
  entry: SecretEntry;
  /** The key: `token`, `access_token`, `password`. */
  key: string;
  /** What it is, in words: "bot token". */
  what: string;
  /** Whether `keychain` gives this secret (Matrix's keychain item is the access token only). */
  withKeychain?: boolean;
}

/** The key of `place` that gives the secret (`token_env`, `keychain`…), or undefined. */
export function secretSource(place: SecretPlace): string | undefined {
  const { entry, key } = place;
  const set = (name: string) => typeof entry[name] === "string" && entry[name] !== "";
  if (set(key)) return key;
  if (set(`${key}_env`)) return `${key}_env`;
  if ((place.withKeychain ?? true) && entry.keychain !== undefined) return "keychain";
  if (set(`${key}_cmd`)) return `${key}_cmd`;
  return undefined;
}

/** Reads the secret; a verdict naming the key that failed, with its fix, when it cannot. */
export async function readSecret(
  place: SecretPlace,
  reading: SecretReading,
): Promise<{ value: string } | { failed: Verdict }> {
  const source = secretSource(place);
  if (!source) {
    return {
      failed: verdict(place.check, "fail", `no ${place.what} set`, {
        fix: `set ${place.section}.${place.key}_cmd, ${place.key}_env or keychain`,
      }),
    };
  }
  const keyPath = `${place.section}.${source}`;
  try {
    const value = await readChannelSecret(
      place.entry,
      place.key,
      keyPath,
      reading,
      place.withKeychain ?? true,
    );
    return { value };
  } catch (error) {
    // readPassword words a command's failure as "password_cmd …" whatever the key is called.
    const said = firstLine(error, 300).replace(`${keyPath}: password_cmd `, `${keyPath}: `);
    return {
      failed: verdict(place.check, "fail", `the ${place.what} does not resolve: ${said}`, {
        fix: secretFix(place, source),
      }),
    };
  }
}

function secretFix(place: SecretPlace, source: string): string {
  const others = `${place.key}_cmd or keychain`;
  if (source.endsWith("_env")) {
    return `set ${String(place.entry[source])} in the environment \`radar serve\` starts with ` +
      `(its service file too), or give ${others} instead`;
  }
  if (source.endsWith("_cmd")) {
    return `run \`${String(place.entry[source])}\` yourself: it must print the ${place.what} ` +
      "on its first line, without asking";
  }
  const item = place.entry.keychain;
  return `store the ${place.what} in the OS keychain` +
    (item ? ` (service "${item.service}", account "${item.account}")` : "") +
    `, or give ${place.key}_cmd instead`;
}
