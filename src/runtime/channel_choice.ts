/**
 * The chat channels' part of the facade, as configured (`channels:` is read at start; a change
 * needs a restart). With a channel configured: its stores, owners and routed notifier
 * (channel_parts.ts, loaded at run time). With none: the same router over ntfy alone (with no
 * chat channel there is no chat to queue a notice in), no channel status, pairing refused as
 * before, and the channel stores neither loaded nor reachable: asking for them fails with one line.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Notifier } from "../core/notifier.ts";
import type { Clock } from "../core/ports.ts";
import { RoutedNotifier } from "../channels/routed_notifier.ts";
import type { ChannelParts, ChannelPartsInput } from "./channel_parts.ts";

/** True when any chat channel (Telegram, Matrix, email) has a `channels:` section. */
export function anyChannelConfigured(config: RadarConfig): boolean {
  return Object.values(config.channels).some((value) => typeof value === "object");
}

/** The channel parts for `config`: built from channel_parts.ts only when a channel is configured. */
export async function openChannelParts(input: ChannelPartsInput): Promise<ChannelParts> {
  if (anyChannelConfigured(input.config)) {
    return (await channelPartsModule()).channelParts(input);
  }
  return noChannelParts(input.config, input.ntfy, input.clock);
}

/** Fails closed: nothing may queue, pair or read a chat channel when none is configured. */
function noChannel(): never {
  throw new Error("no chat channel is configured (add a channels: section and restart Radar)");
}

/** The channel parts with no chat channel configured. */
function noChannelParts(config: RadarConfig, ntfy: Notifier, clock: Clock): ChannelParts {
  // The router reaches its stores and owners only to queue in a configured chat channel.
  const unreachable = new Proxy({}, { get: noChannel });
  return {
    notifier: new RoutedNotifier({
      config,
      ntfy,
      stores: unreachable as ChannelParts["stores"],
      owners: unreachable as ChannelParts["owners"],
      clock,
    }),
    get stores() {
      return noChannel();
    },
    get owners() {
      return noChannel();
    },
    configured: () => false,
    status: () => [],
    pair: (channel) => {
      throw new Error(`${channel} is not configured: add a channels.${channel} section first`);
    },
    onQueued: () => () => {},
  };
}

/** The channels' parts, loaded only when a channel is configured. */
function channelPartsModule(): Promise<typeof import("./channel_parts.ts")> {
  return import(new URL("./channel_parts.ts", import.meta.url).href);
}
