/**
 * The ntfy topic Radar makes up for a user who set none: 20 random bytes (160 bits) as base64url
 * after `radar-`, created once, owner-only, in the data folder (where config-derived state lives;
 * never in radar.yaml, which may sit in a repository). Whoever knows a topic on a public server
 * reads every notification sent to it, so a short or guessed one is a leak; how strong a topic
 * looks is estimated from its length and the kinds of characters in it.
 */
import { Buffer } from "node:buffer";
import { join } from "node:path";

/** Where the generated topic lives. */
export function generatedTopicPath(dataDir: string): string {
  return join(dataDir, "ntfy_topic");
}

/** The bits a topic needs before Radar stops warning about it. */
export const strongTopicBits = 128;

/** A new random topic: `radar-` and 160 bits as base64url (ntfy allows [-_A-Za-z0-9]{1,64}). */
export function newTopic(): string {
  return `radar-${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("base64url")}`;
}

function readTopic(path: string): string | undefined {
  try {
    const topic = Deno.readTextFileSync(path).trim();
    return /^radar-[A-Za-z0-9_-]{27}$/.test(topic) ? topic : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The generated topic: the stored one, else a new one written owner-only (0600, create-new, so
 * two processes agree). Undefined when the data folder cannot hold it.
 */
export function generatedTopic(dataDir: string): string | undefined {
  const path = generatedTopicPath(dataDir);
  const existing = readTopic(path);
  if (existing) return existing;
  try {
    Deno.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, `${newTopic()}\n`, { mode: 0o600, createNew: true });
  } catch { /* raced (read below) or unwritable */ }
  return readTopic(path);
}

/** Bits a topic's guesser faces at most: length × log2(the character kinds it uses). */
export function topicBits(topic: string): number {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  const sizes = [26, 26, 10, 2];
  const alphabet = kinds.reduce(
    (sum, kind, index) => sum + (kind.test(topic) ? sizes[index] : 0),
    0,
  );
  return alphabet ? Math.floor(topic.length * Math.log2(alphabet)) : 0;
}
