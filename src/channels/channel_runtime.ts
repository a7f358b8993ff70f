/**
 * The running channels under `radar serve`: for each configured channel an adapter (its library
 * loaded now), a loop that receives and stores (then acknowledges) what comes in, and a sender
 * that delivers the queue; one handler takes the stored messages one at a time (one model run at
 * a time). Each channel fails on its own: a channel that cannot connect backs off and retries
 * while the others go on. Health goes to `channel_health` for `radar status` and the dashboard.
 */
import type { RadarConfig } from "../config/schema.ts";
import { ChannelBusyError, type ChannelName, type ChatChannel } from "../core/channel.ts";
import type { ChannelStores } from "../core/channel_stores.ts";
import { firstLine } from "../core/errors.ts";
import { ChannelSender, type ChannelSenderParts } from "./channel_sender.ts";
import type { InboundHandler } from "./inbound_handler.ts";

/** Opens one channel's adapter (reads its secrets, loads its library). */
export type ChannelOpener = () => Promise<ChatChannel>;

/** What the runtime is built from. */
export interface ChannelRuntimeParts extends Omit<ChannelSenderParts, "channel"> {
  config: RadarConfig;
  openers: Partial<Record<ChannelName, ChannelOpener>>;
  /** Built with the runtime's `channel` lookup. */
  handler: (channel: (name: ChannelName) => ChatChannel | undefined) => InboundHandler;
  /** The first wait after a failure (doubling up to 5 minutes); tests shorten it. */
  retryBaseMs?: number;
  /** How often idle loops look at the database for work another process queued. */
  idleMs?: number;
}

/** Wakes waiting loops early. */
class Wakeup {
  #waiters = new Set<() => void>();

  wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /** Waits `ms`, or until woken or aborted. */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(ms, 0));
      this.#waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

/** The running channels (an event source of the daemon: start, close). */
export class ChannelRuntime {
  readonly #stop = new AbortController();
  readonly #open = new Map<ChannelName, ChatChannel>();
  readonly #senders = new Map<ChannelName, ChannelSender>();
  readonly #incoming = new Wakeup();
  readonly #outgoing = new Wakeup();
  readonly #loops: Promise<void>[] = [];
  readonly #handler: InboundHandler;

  constructor(private readonly parts: ChannelRuntimeParts) {
    this.#handler = parts.handler((name) => this.#open.get(name));
  }

  /** Starts every configured channel and the handler (once). */
  start(): void {
    if (this.#loops.length || this.#stop.signal.aborted) return;
    for (
      const [name, opener] of Object.entries(this.parts.openers) as Array<
        [ChannelName, ChannelOpener]
      >
    ) {
      this.#loops.push(this.#run(name, opener));
    }
    this.#loops.push(this.#handle());
  }

  /** Something was queued to send: the senders look now. */
  queued(): void {
    this.#outgoing.wake();
  }

  /** Stops every loop and closes the adapters. */
  close(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort();
    const now = this.parts.clock.now();
    for (const [name, channel] of this.#open) {
      channel.close();
      this.#report(name, { state: "stopped" }, now);
    }
  }

  /** Resolves when every loop has ended (after `close`). */
  async closed(): Promise<void> {
    await Promise.all(this.#loops);
  }

  /** Opens the adapter (retrying with backoff), then receives and sends until stopped. */
  async #run(name: ChannelName, opener: ChannelOpener): Promise<void> {
    const signal = this.#stop.signal;
    const { logger, clock } = this.parts;
    let failures = 0;
    let channel: ChatChannel | undefined;
    while (!signal.aborted && !channel) {
      this.#report(name, { state: "connecting", pid: this.parts.pid }, clock.now());
      try {
        channel = await opener();
      } catch (error) {
        failures++;
        const line = firstLine(error);
        this.#report(name, { state: "failing", lastError: line }, clock.now());
        logger.warn("channel cannot start", { channel: name, error: line });
        await this.#incoming.wait(this.#backoff(failures), signal);
      }
    }
    if (!channel) return;
    if (signal.aborted) return channel.close();
    this.#open.set(name, channel);
    const sender = new ChannelSender({ ...this.parts, channel });
    this.#senders.set(name, sender);
    await Promise.all([this.#receive(channel), this.#send(channel, sender)]);
  }

  async #receive(channel: ChatChannel): Promise<void> {
    const signal = this.#stop.signal;
    const { stores, clock, logger } = this.parts;
    let failures = 0;
    while (!signal.aborted) {
      try {
        const batch = await channel.receive(stores.inbox.cursor(channel.name), signal);
        if (signal.aborted) break;
        const now = clock.now();
        const added = stores.inbox.store(channel.name, batch.messages, batch.cursor, now);
        for (const id of batch.withdrawn ?? []) stores.inbox.withdraw(channel.name, id, now);
        failures = 0;
        this.#report(channel.name, {
          state: "connected",
          ...(added ? { lastMessageAt: now.toISOString() } : {}),
        }, now);
        if (added) this.#incoming.wake();
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        const line = firstLine(error);
        this.#report(channel.name, { state: "failing", lastError: line }, clock.now());
        logger.warn("channel receive failed", { channel: channel.name, error: line });
        const wait = error instanceof ChannelBusyError
          ? error.retryAfterMs
          : this.#backoff(failures);
        await new Wakeup().wait(wait, signal);
      }
    }
  }

  async #send(channel: ChatChannel, sender: ChannelSender): Promise<void> {
    const signal = this.#stop.signal;
    const { stores, clock } = this.parts;
    const idle = this.parts.idleMs ?? 5_000;
    while (!signal.aborted) {
      try {
        await sender.flush(signal);
      } catch (error) {
        this.parts.logger.warn("channel send failed", {
          channel: channel.name,
          error: firstLine(error),
        });
      }
      const next = stores.outbox.nextDue(channel.name);
      const until = next ? new Date(next).getTime() - clock.now().getTime() : idle;
      await this.#outgoing.wait(Math.min(Math.max(until, 0), idle), signal);
    }
  }

  /** Handles stored messages one at a time (after a restart, those left unhandled first). */
  async #handle(): Promise<void> {
    const signal = this.#stop.signal;
    const { stores, pid, isAlive, logger } = this.parts;
    const idle = this.parts.idleMs ?? 5_000;
    while (!signal.aborted) {
      let record;
      try {
        record = stores.inbox.claim(pid, isAlive);
      } catch (error) {
        logger.warn("cannot read the channel messages", { error: firstLine(error) });
      }
      if (!record) {
        await this.#incoming.wait(idle, signal);
        continue;
      }
      await this.#handler.handle(record, signal);
      this.#outgoing.wake();
    }
  }

  #backoff(failures: number): number {
    return Math.min((this.parts.retryBaseMs ?? 5_000) * 2 ** (failures - 1), 300_000);
  }

  #report(name: ChannelName, patch: Parameters<ChannelStores["health"]["report"]>[1], at: Date) {
    try {
      const masked = patch.lastError
        ? { ...patch, lastError: this.parts.mask(patch.lastError) }
        : patch;
      this.parts.stores.health.report(name, masked, at);
    } catch { /* a read-only or damaged database: the daemon's guard says so */ }
  }
}
