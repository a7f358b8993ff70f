/**
 * Delivery receipts for notifications: a send that failed (ntfy down, a 5xx, no network) is tried
 * again after 1, 5, 30 and 120 minutes; after the last it is recorded as undeliverable, which
 * `radar status`, `radar notifications` and the dashboard show. An approval's notice is rebuilt
 * with fresh buttons (their secrets are never stored), or dropped once decided.
 */
import type { Clock, Logger } from "../core/ports.ts";
import type { Notification, NotificationPriority, Notifier } from "../core/notifier.ts";
import { retryDelaysMinutes } from "../away/mod.ts";
import type { Outbox, OutboxEntry, TickJob } from "../core/work_ports.ts";

/** What the retries need. */
interface NotificationRetryParts {
  outbox: Outbox;
  notifier: Notifier;
  clock: Clock;
  logger: Logger;
  pid: number;
  /** An approval's notice rebuilt for its key, or undefined when it no longer applies. */
  renotice?: (key: string) => Notification | undefined;
}

const priorities: readonly string[] = ["low", "default", "high", "urgent"];

/** The tick job that retries failed notifications. */
export class NotificationRetries implements TickJob {
  readonly name = "notification retries";
  constructor(private readonly parts: NotificationRetryParts) {}

  /** Retries the failed notifications whose wait is over. */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { outbox, logger } = this.parts;
    for (const entry of outbox.failed("notify", 50)) {
      if (signal.aborted) return;
      const wait = retryDelaysMinutes[entry.attempts - 1];
      if (wait === undefined) {
        outbox.markUndeliverable(entry.key, now);
        logger.warn("notification undeliverable", {
          key: entry.key,
          attempts: entry.attempts,
          error: entry.error,
        });
        continue;
      }
      const failedAt = new Date(entry.finishedAt ?? entry.createdAt).getTime();
      if (failedAt + wait * 60_000 > now.getTime()) continue;
      await this.#retry(entry, now, signal);
    }
  }

  async #retry(entry: OutboxEntry, now: Date, signal: AbortSignal): Promise<void> {
    const { outbox, notifier, clock, pid } = this.parts;
    const approval = entry.key.startsWith("approval:");
    const notification = approval ? this.parts.renotice?.(entry.key) : plainNotification(entry);
    if (!notification) {
      // An approval decided meanwhile: its notice no longer matters.
      outbox.markUndeliverable(entry.key, now);
      return;
    }
    const taken = outbox.claim({
      key: entry.key,
      kind: entry.kind,
      summary: entry.summary,
      at: now,
      pid,
      topic: notifier.topic(),
      title: entry.title,
      body: entry.body,
      priority: entry.priority,
    });
    if (taken) return; // another process retried it first
    const delivery = await notifier.send({ ...notification, key: entry.key }, signal);
    if (delivery.sent) outbox.markSent(entry.key, clock.now(), { status: delivery.status });
    else {outbox.markFailed(entry.key, clock.now(), {
        status: delivery.status,
        error: delivery.error,
      });}
  }
}

/** A notification sent again from what the outbox kept of it. */
function plainNotification(entry: OutboxEntry): Notification {
  return {
    message: entry.body ?? entry.summary,
    title: entry.title,
    priority: priorities.includes(entry.priority ?? "")
      ? entry.priority as NotificationPriority
      : undefined,
  };
}
