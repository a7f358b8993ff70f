/**
 * The chat channels, assembled early (right after the database) when one is configured
 * (channel_choice.ts; loaded at run time): their stores, who the owner is,
 * and the notifier every notice goes through (ntfy plus the chat channels `notifications.channels`
 * names: a notice is only queued there, so this loads no channel library). The running channels
 * (adapters, receive and send loops, the handler) start under `radar serve` only, from
 * `src/runtime/channel_runtime_setup.ts`, imported when a channel is configured.
 */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import type { ChannelName } from "../core/channel.ts";
import type { ChannelStatus, ChannelStores } from "../core/channel_stores.ts";
import type { Notifier } from "../core/notifier.ts";
import type { Clock } from "../core/ports.ts";
import { sqliteChannelStores } from "../adapters/sqlite/channel_stores.ts";
import { ChannelOwners } from "../channels/channel_owners.ts";
import { RoutedNotifier } from "../channels/routed_notifier.ts";
import { channelStatus } from "../channels/channel_status.ts";

/** What the facade hands out about the channels. */
export interface ChannelParts {
  /** ntfy and the chat channels named in `notifications.channels`. */
  notifier: Notifier;
  stores: ChannelStores;
  owners: ChannelOwners;
  /** True when any channel is configured (`radar serve` starts them). */
  configured(): boolean;
  /** Each configured channel's state (`radar status`, the dashboard). */
  status(): ChannelStatus[];
  /** A one-time pairing code for `channel` (`radar channel pair`), valid for 10 minutes. */
  pair(channel: ChannelName): { code: string; expiresAt: Date };
  /** Calls `listener` whenever a notice was queued for a chat channel; returns the unsubscribe. */
  onQueued(listener: () => void): () => void;
}

/** What the channel parts are built over. */
export interface ChannelPartsInput {
  config: RadarConfig;
  db: DatabaseSync;
  ntfy: Notifier;
  clock: Clock;
}

/** Builds the channel stores, the owners and the routed notifier over the open database. */
export function channelParts(input: ChannelPartsInput): ChannelParts {
  const { config, clock } = input;
  const stores = sqliteChannelStores(input.db);
  const owners = new ChannelOwners(config, stores.people);
  const listeners = new Set<() => void>();
  const notifier = new RoutedNotifier({
    config,
    ntfy: input.ntfy,
    stores,
    owners,
    clock,
    queued: () => listeners.forEach((listener) => listener()),
  });
  return {
    notifier,
    stores,
    owners,
    // Built only when a channel is configured (`openChannelParts`, `anyChannelConfigured`).
    configured: () => true,
    status: () => channelStatus(config, stores, owners),
    pair: (channel) => {
      if (!config.channels[channel]) {
        throw new Error(`${channel} is not configured: add a channels.${channel} section first`);
      }
      return owners.newPairingCode(channel, clock.now());
    },
    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
