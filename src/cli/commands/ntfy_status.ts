/**
 * `radar status`'s notification line: where notifications go, and a warning when whoever guesses
 * the topic can read them — a public server (ntfy.sh, or any host that is not this machine or the
 * local network) with a short topic, or without an access token. Without a topic, Radar makes one
 * up on this first setup and says how to use it: sending to a public server is the user's choice.
 */
import type { RadarConfig } from "../../config/schema.ts";
import { generatedTopic, strongTopicBits, topicBits } from "../../config/ntfy_topic.ts";
import { bare, isLoopbackHost, isPrivateAddress } from "../../adapters/network/address_policy.ts";

/** True for a server other people reach too (not loopback, a private address or a .local name). */
export function isPublicServer(url: string): boolean {
  let host: string;
  try {
    host = bare(new URL(url).hostname);
  } catch {
    return true;
  }
  if (isLoopbackHost(host) || isPrivateAddress(host)) return false;
  return !/\.(local|lan|home\.arpa|ts\.net)$/.test(host);
}

/** The status lines about notifications. */
export function ntfyStatusLines(config: RadarConfig, dataDir: string): string[] {
  const { url, topic, token } = config.notifications.ntfy;
  if (!topic) {
    const made = generatedTopic(dataDir);
    return [
      "notifications: off (no notifications.ntfy.topic)" +
      (made
        ? `; a topic only you know: ${made} — subscribe to it in the ntfy app, then set ` +
          `notifications.ntfy.topic (or RADAR_NTFY_TOPIC) to it`
        : ""),
    ];
  }
  const lines = [`notifications: ntfy ${url} (topic ${topic.length} characters)`];
  if (!isPublicServer(url)) return lines;
  const bits = topicBits(topic);
  if (bits < strongTopicBits) {
    lines.push(
      `  WARNING: ${url} is public and the topic is short (about ${bits} bits): anyone who ` +
        `guesses it reads your notifications. Use a long random one: ${
          generatedTopic(dataDir) ?? "22+ random letters and digits"
        }`,
    );
  }
  if (!token) {
    lines.push(
      `  WARNING: ${url} is public and no access token is set (notifications.ntfy.token): ` +
        "reserve the topic on the server or run your own, so nobody else can read or post to it",
    );
  }
  return lines;
}
