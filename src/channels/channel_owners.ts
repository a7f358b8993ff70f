/**
 * Who the owner is on a channel: the identities in config (`allowed_users`, `allowed_senders`)
 * and those paired with `radar channel pair` (a one-time code shown on the terminal, sent to the
 * bot within 10 minutes; only its hash is stored). Everyone else is a stranger: their words reach
 * no model and run nothing.
 */
import { createHash } from "node:crypto";
import type { RadarConfig } from "../config/schema.ts";
import type { ChannelName } from "../core/channel.ts";
import type { ChannelPeople } from "../core/channel_stores.ts";

/** How long a pairing code works. */
export const pairingMinutes = 10;

/** Letters and digits that cannot be mistaken for each other. */
const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** A random code of `length` characters from the unambiguous alphabet. */
export function randomCode(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((byte) => alphabet[byte % alphabet.length]).join("");
}

/** The stored form of a code or key (SHA-256, hex): the secret itself is never stored. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A pairing code as people type it: letters and digits only, upper case. */
export function normalCode(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** The configured owner identities of `channel` (as the adapters spell sender ids). */
export function configuredOwners(config: RadarConfig, channel: ChannelName): string[] {
  const section = config.channels;
  if (channel === "telegram") return (section.telegram?.allowed_users ?? []).map(String);
  if (channel === "matrix") return [...(section.matrix?.allowed_users ?? [])];
  return (section.email?.allowed_senders ?? []).map((address) => address.toLowerCase());
}

/** The owner's identities and pairing on the channels. */
export class ChannelOwners {
  constructor(
    private readonly config: RadarConfig,
    private readonly people: ChannelPeople,
  ) {}

  /** Every owner identity of `channel`: configured first, then paired. */
  of(channel: ChannelName): string[] {
    const paired = channel === "email" ? [] : this.people.pairedOwners(channel);
    return [...new Set([...configuredOwners(this.config, channel), ...paired])];
  }

  /** True when `senderId` is an owner identity of `channel`. */
  isOwner(channel: ChannelName, senderId: string): boolean {
    const id = channel === "email" ? senderId.toLowerCase() : senderId;
    return this.of(channel).includes(id);
  }

  /** A new pairing code for `channel` (valid for 10 minutes), as shown to the user. */
  newPairingCode(channel: ChannelName, now: Date): { code: string; expiresAt: Date } {
    if (channel === "email") {
      throw new Error("email has no pairing: set channels.email.allowed_senders");
    }
    const code = randomCode(8);
    const expiresAt = new Date(now.getTime() + pairingMinutes * 60_000);
    this.people.addPairing(channel, hashKey(`pair:${channel}:${code}`), now, expiresAt);
    return { code: `${code.slice(0, 4)}-${code.slice(4)}`, expiresAt };
  }

  /**
   * Tries `text` as a pairing code from `senderId` ("/start CODE", "/pair CODE" or the code);
   * true when it was a live code and the sender is now an owner.
   */
  tryPairing(channel: ChannelName, senderId: string, text: string, now: Date): boolean {
    if (channel === "email") return false;
    const words = text.trim().split(/\s+/);
    const candidate = /^\/(start|pair)(@\S+)?$/i.test(words[0] ?? "")
      ? words.slice(1).join("")
      : words.join("");
    const code = normalCode(candidate);
    if (code.length !== 8) return false;
    return this.people.pair(channel, hashKey(`pair:${channel}:${code}`), senderId, now);
  }

  /** True when `text` looks like an attempt at a code (counted against the sender when wrong). */
  looksLikeCode(text: string): boolean {
    const code = normalCode(text.replace(/^\/(start|pair)(@\S+)?\s*/i, ""));
    return code.length === 8 && text.trim().length <= 30;
  }
}
