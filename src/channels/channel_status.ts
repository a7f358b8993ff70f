/**
 * Each configured channel as `radar status` and the dashboard show it: connected or not (as the
 * daemon last reported), the last message in and out, the last error, owners known, and what
 * waits (messages not handled yet, messages not sent yet, messages given up on).
 */
import type { RadarConfig } from "../config/schema.ts";
import { channelNames } from "../core/channel.ts";
import type { ChannelStatus, ChannelStores } from "../core/channel_stores.ts";
import { formatDateTime } from "../core/zoned_time.ts";
import type { ChannelOwners } from "./channel_owners.ts";

/** The configured channels' status. */
export function channelStatus(
  config: RadarConfig,
  stores: ChannelStores,
  owners: ChannelOwners,
): ChannelStatus[] {
  const health = new Map(stores.health.all().map((record) => [record.channel, record]));
  return channelNames.filter((name) => config.channels[name] !== undefined).map((channel) => {
    const record = health.get(channel);
    const counts = stores.outbox.counts(channel);
    return {
      channel,
      state: record?.state ?? "not started",
      updatedAt: record?.updatedAt,
      lastMessageAt: record?.lastMessageAt,
      lastSentAt: record?.lastSentAt,
      lastError: record?.lastError,
      lastErrorAt: record?.lastErrorAt,
      owners: owners.of(channel).length,
      waiting: stores.inbox.waiting(channel),
      unsent: counts.waiting,
      undeliverable: counts.undeliverable,
      notices: config.notifications.channels.includes(channel),
    };
  });
}

/** `radar status` lines (none when no channel is configured). */
export function channelStatusLines(list: readonly ChannelStatus[], timeZone?: string): string[] {
  if (!list.length) return [];
  const when = (iso?: string) => iso ? formatDateTime(new Date(iso), timeZone) : "never";
  return [
    "channels:",
    ...list.flatMap((status) => [
      `  ${status.channel}: ${
        status.state === "not started" ? "not started (runs under radar serve)" : status.state
      }` +
      `; ${status.owners} owner${status.owners === 1 ? "" : "s"}` +
      (status.notices ? "; gets notices" : ""),
      `    last message in: ${when(status.lastMessageAt)}; out: ${when(status.lastSentAt)}`,
      ...(status.waiting || status.unsent || status.undeliverable
        ? [
          `    waiting: ${status.waiting} to handle, ${status.unsent} to send; undeliverable: ${status.undeliverable}`,
        ]
        : []),
      ...(status.lastError
        ? [`    last error (${when(status.lastErrorAt)}): ${status.lastError}`]
        : []),
    ]),
  ];
}
