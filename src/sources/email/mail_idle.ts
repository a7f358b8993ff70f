/**
 * IMAP IDLE: while the daemon runs, one connection per account waits in IDLE on its mailbox and
 * new mail ('exists' growing) runs that account's check at once instead of at the next poll. A
 * server without IDLE is left to polling; a dropped connection is reopened with backoff (polling
 * goes on meanwhile); `close()` ends every connection.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ImapFlow } from "imapflow";
import { coalescedRun } from "../../core/coalesced_run.ts";
import type { Logger } from "../../core/ports.ts";
import {
  accountPassword,
  checkTransport,
  describeImapError,
  type EmailAccount,
  imapClient,
  type ImapSettings,
} from "./imap_connection.ts";

/** A session that lasted this long was healthy: the reconnect after it starts a fresh backoff. */
const healthySessionMs = 60_000;

/** What one account's watcher is doing. */
export type IdleState = "connecting" | "idling" | "unsupported" | "waiting" | "stopped";

/** What the watchers need. */
interface MailIdleOptions {
  accounts: readonly EmailAccount[];
  settings: ImapSettings;
  logger: Logger;
  /** Runs the account's new-mail check (serialized with the polling check by the caller). */
  onNewMail(account: EmailAccount): Promise<unknown>;
  /** Milliseconds before the first reconnect, doubling up to `maxRetryMs` (defaults 5 s, 15 min). */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** IDLE is restarted this often (default 4 minutes; servers drop it after 30). */
  maxIdleMs?: number;
}

/** One IDLE connection per account; a `Watcher` of the daemon (start, close). */
export class MailIdleWatchers {
  readonly #options: MailIdleOptions;
  readonly #stop = new AbortController();
  readonly #states = new Map<string, IdleState>();
  readonly #clients = new Map<string, ImapFlow>();
  readonly #loops: Promise<void>[] = [];
  readonly #listeners = new Set<() => void>();

  constructor(options: MailIdleOptions) {
    this.#options = options;
  }

  /** Starts one watcher per account (once). */
  start(): void {
    if (this.#loops.length || this.#stop.signal.aborted) return;
    for (const account of this.#options.accounts) this.#loops.push(this.#watch(account));
  }

  /** Ends every connection and watcher. */
  close(): void {
    this.#stop.abort();
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }

  /** Resolves when every watcher has ended (after `close`). */
  async closed(): Promise<void> {
    await Promise.all(this.#loops);
  }

  /** The state of `account`'s watcher. */
  state(account: string): IdleState {
    return this.#states.get(account) ?? "stopped";
  }

  /** Open IDLE connections right now. */
  connections(): number {
    return this.#clients.size;
  }

  /** Resolves once `account`'s watcher is in `state` (tests and status wait on it). */
  reached(account: string, state: IdleState, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.state(account) === state) {
          this.#listeners.delete(check);
          resolve();
        } else if (signal?.aborted) {
          this.#listeners.delete(check);
          reject(signal.reason);
        }
      };
      this.#listeners.add(check);
      signal?.addEventListener("abort", check, { once: true });
      check();
    });
  }

  #set(account: EmailAccount, state: IdleState): void {
    this.#states.set(account.name, state);
    for (const listener of [...this.#listeners]) listener();
  }

  async #watch(account: EmailAccount): Promise<void> {
    const { logger } = this.#options;
    const first = this.#options.firstRetryMs ?? 5_000;
    let failures = 0;
    let sessions = 0;
    while (!this.#stop.signal.aborted) {
      this.#set(account, "connecting");
      const startedAt = Date.now();
      try {
        const idled = await this.#session(account, sessions++ > 0);
        if (idled === "unsupported") {
          logger.info("IMAP server offers no IDLE; polling only", { account: account.name });
          this.#set(account, "unsupported");
          return;
        }
        // Only a session that stayed up resets the backoff: a server that drops every connection
        // right after IDLE starts must not get a reconnect (and a check) every first delay.
        failures = idled === "idled" && Date.now() - startedAt >= healthySessionMs
          ? 0
          : failures + 1;
      } catch (error) {
        failures++;
        if (failures === 1 && !this.#stop.signal.aborted) {
          logger.warn("IMAP IDLE connection failed; polling meanwhile", {
            account: account.name,
            error: (error as Error).message,
          });
        }
      }
      if (this.#stop.signal.aborted) break;
      this.#set(account, "waiting");
      const wait = Math.min(
        first * 2 ** Math.max(failures - 1, 0),
        this.#options.maxRetryMs ?? 900_000,
      );
      // Cut short by close() (the rejection is the abort).
      await delay(wait, undefined, { signal: this.#stop.signal }).catch(() => {});
    }
    this.#set(account, "stopped");
  }

  /** One connection: "unsupported", "idled" (it was idling when it ended) or "failed". */
  async #session(
    account: EmailAccount,
    reconnected: boolean,
  ): Promise<"unsupported" | "idled" | "failed"> {
    const { settings } = this.#options;
    checkTransport(account);
    const password = await accountPassword(account, settings);
    if (this.#stop.signal.aborted) return "failed";
    const client = imapClient(account, password, settings, {
      maxIdleMs: this.#options.maxIdleMs ?? 240_000,
    });
    client.on("error", () => {});
    this.#clients.set(account.name, client);
    let idled = false;
    try {
      await client.connect();
      if (!client.capabilities.has("IDLE")) return "unsupported";
      await client.mailboxOpen(account.mailbox, { readOnly: true });
      // One check at a time for each burst of new mail; once more if mail came meanwhile.
      const logger = this.#options.logger;
      const trigger = coalescedRun(() =>
        this.#options.onNewMail(account).catch((error) =>
          logger.warn("new-mail check failed", { error: (error as Error).message })
        )
      );
      client.on("exists", (update: { count: number; prevCount: number }) => {
        if (update.count > update.prevCount) trigger();
      });
      // Mail that came while the connection was down.
      if (reconnected) trigger();
      while (!this.#stop.signal.aborted && client.usable) {
        this.#set(account, "idling");
        idled = true;
        // false: IDLE ended with the connection (the reconnect comes after the first delay).
        if (await client.idle() === false) break;
      }
      return "idled";
    } catch (error) {
      if (this.#stop.signal.aborted) return idled ? "idled" : "failed";
      throw new Error(describeImapError(account, error, password));
    } finally {
      this.#clients.delete(account.name);
      if (client.usable) await client.logout().catch(() => client.close());
      else client.close();
    }
  }
}
