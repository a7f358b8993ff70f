/**
 * Notices (heartbeat findings, reminders, approvals) routed to `notifications.channels`: ntfy is
 * sent at once as before; a chat channel gets the notice queued in the owner's chat there (the
 * chat they last talked to Radar in, else their configured id or address) once per outbox key, and
 * its delivery is tracked like every channel message (tries, backoff, receipt). An approval's
 * question is queued as a question, asked inline when it goes out. Loads no channel library.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ChannelName } from "../core/channel.ts";
import type { ChannelStores } from "../core/channel_stores.ts";
import type { Delivery, Notification, Notifier } from "../core/notifier.ts";
import type { Clock } from "../core/ports.ts";
import type { ChannelOwners } from "./channel_owners.ts";

/** What the router needs. */
export interface RoutedNotifierParts {
  config: RadarConfig;
  /** ntfy. */
  ntfy: Notifier;
  stores: Pick<ChannelStores, "outbox" | "people">;
  owners: ChannelOwners;
  clock: Clock;
  /** Called after a notice was queued (the running channels send it now). */
  queued?: () => void;
}

/** The Notifier the runtime hands out: ntfy and the chosen chat channels. */
export class RoutedNotifier implements Notifier {
  constructor(private readonly parts: RoutedNotifierParts) {}

  /** The chat channels notices go to (configured ones only). */
  #chats(): ChannelName[] {
    const { config } = this.parts;
    return config.notifications.channels.filter((target): target is ChannelName =>
      target !== "ntfy" && config.channels[target] !== undefined
    );
  }

  #ntfy(): boolean {
    return this.parts.config.notifications.channels.includes("ntfy");
  }

  topic(): string | undefined {
    const ntfy = this.#ntfy() ? this.parts.ntfy.topic() : undefined;
    const chats = this.#chats();
    if (!chats.length) return ntfy;
    return [...(ntfy ? [ntfy] : []), ...chats].join(", ");
  }

  async send(notification: Notification, signal: AbortSignal): Promise<Delivery> {
    const chats = this.#chats();
    if (!chats.length) return await this.parts.ntfy.send(notification, signal);
    const reached: string[] = [];
    const problems: string[] = [];
    for (const channel of chats) {
      const problem = this.#queue(channel, notification);
      if (problem) problems.push(problem);
      else reached.push(channel);
    }
    if (reached.length) this.parts.queued?.();
    let ntfy: Delivery | undefined;
    if (this.#ntfy() && this.parts.ntfy.topic()) {
      ntfy = await this.parts.ntfy.send(notification, signal);
      if (ntfy.sent) reached.push(`ntfy topic ${ntfy.topic}`);
      else problems.push(ntfy.error);
    }
    const topic = this.topic() ?? chats.join(", ");
    if (problems.length) {
      return { sent: false, topic, status: ntfy?.status, error: problems.join(" ") };
    }
    return { sent: true, topic, status: ntfy?.status ?? 200, to: reached.join(" and ") };
  }

  /** Queues the notice in the owner's chat on `channel`; the problem, or undefined. */
  #queue(channel: ChannelName, notification: Notification): string | undefined {
    const { stores, owners, clock } = this.parts;
    const ids = owners.of(channel);
    const chat = stores.people.latestChat(channel, ids);
    const chatId = chat?.chatId ?? (channel === "matrix" ? undefined : ids[0]);
    if (!chatId) {
      return channel === "matrix"
        ? "No Matrix room with the owner yet: write to Radar there first."
        : `No owner on ${channel} yet: set allowed_users or pair with \`radar channel pair ${channel}\`.`;
    }
    const ask = notification.approval !== undefined;
    const text = notification.title
      ? `${notification.title}\n${notification.message}`
      : notification.message;
    stores.outbox.enqueue({
      channel,
      chatId,
      ownerId: chat?.senderId ?? ids[0],
      purpose: ask ? "ask" : "notice",
      approvalId: notification.approval,
      text,
      subject: notification.title ?? "Radar",
      dedupeKey: ask
        ? `ask:${notification.approval}:${channel}`
        : notification.key
        ? `notice:${notification.key}:${channel}`
        : undefined,
    }, clock.now());
    return undefined;
  }
}
