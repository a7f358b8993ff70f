/**
 * The browser sessions of running conversations: at most one per conversation, started on the
 * first browser call, closed when the run ends (heartbeats, tasks, `radar ask`), after
 * `browser.idle_seconds` without a call (a chat between messages), after
 * `browser.session_seconds` whatever happens, and all of them when Radar closes.
 */
import type { BrowserSession, FilledField, SessionLimits, WebBrowser } from "../core/browser.ts";
import type { Clock } from "../core/ports.ts";

/** Timers the sessions use (tests fire them by hand). */
export interface SessionTimers {
  set(callback: () => void, milliseconds: number): number;
  clear(id: number): void;
}

/** Real timers that do not keep the process alive. */
export const unrefTimers: SessionTimers = {
  set(callback, milliseconds) {
    const id = setTimeout(callback, milliseconds) as unknown as number;
    Deno.unrefTimer(id);
    return id;
  },
  clear: (id) => clearTimeout(id),
};

/** The settings sessions follow (read on every start: live config). */
export interface SessionSettings {
  limits: SessionLimits;
  sessionMs: number;
  idleMs: number;
  /** Sessions that may run at once (each is a browser process). */
  maxSessions: number;
}

/** One live session and what the tool remembers about it. */
export interface LiveSession {
  session: BrowserSession;
  startedAt: number;
  /** Fields filled on the current page, by selector (a pending approval replays them). */
  filled: Map<string, FilledField>;
  /** The page the fields were filled on. */
  filledOn?: string;
}

interface Entry extends LiveSession {
  idleTimer?: number;
  lifeTimer?: number;
}

/** The sessions of this process. */
export class BrowserSessions {
  #sessions = new Map<string, Entry>();
  #starting = new Map<string, Promise<Entry>>();

  constructor(
    readonly browser: WebBrowser,
    private readonly settings: () => SessionSettings,
    private readonly clock: Clock,
    private readonly timers: SessionTimers = unrefTimers,
  ) {}

  /** How many sessions are open. */
  get open(): number {
    return this.#sessions.size;
  }

  /** The session of `key` if one is open. */
  current(key: string): LiveSession | undefined {
    const entry = this.#sessions.get(key);
    return entry && !entry.session.closed ? entry : undefined;
  }

  /** The session of `key`, started when there is none (or the last one was closed). */
  async session(key: string, signal: AbortSignal): Promise<LiveSession> {
    const found = this.current(key);
    if (found) {
      this.#touch(key, found as Entry);
      return found;
    }
    if (this.#sessions.has(key)) await this.close(key);
    const pending = this.#starting.get(key);
    if (pending) return await pending;
    const settings = this.settings();
    if (this.#sessions.size + this.#starting.size >= settings.maxSessions) {
      throw new Error(
        `${settings.maxSessions} browser sessions are open already; try again when one ends`,
      );
    }
    const starting = this.browser.start(settings.limits, signal).then((session) => {
      const entry: Entry = { session, startedAt: this.clock.now().getTime(), filled: new Map() };
      this.#sessions.set(key, entry);
      entry.lifeTimer = this.timers.set(() => void this.close(key), settings.sessionMs);
      this.#touch(key, entry);
      return entry;
    });
    this.#starting.set(key, starting);
    try {
      return await starting;
    } finally {
      this.#starting.delete(key);
    }
  }

  /** Milliseconds the session of `key` may still live (its `session_seconds`). */
  remainingMs(key: string): number {
    const entry = this.#sessions.get(key);
    if (!entry) return this.settings().sessionMs;
    return entry.startedAt + this.settings().sessionMs - this.clock.now().getTime();
  }

  /** Closes the session of `key` (nothing when there is none). */
  async close(key: string): Promise<void> {
    const entry = this.#sessions.get(key);
    if (!entry) return;
    this.#sessions.delete(key);
    if (entry.idleTimer !== undefined) this.timers.clear(entry.idleTimer);
    if (entry.lifeTimer !== undefined) this.timers.clear(entry.lifeTimer);
    await entry.session.close();
  }

  /** Closes every session (Radar is closing). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#starting.values()]);
    await Promise.allSettled([...this.#sessions.keys()].map((key) => this.close(key)));
  }

  #touch(key: string, entry: Entry): void {
    if (entry.idleTimer !== undefined) this.timers.clear(entry.idleTimer);
    entry.idleTimer = this.timers.set(() => void this.close(key), this.settings().idleMs);
  }
}
