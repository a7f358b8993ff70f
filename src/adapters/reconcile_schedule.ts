/**
 * When a folder watcher compares its folder with the ledger while watching: after a burst
 * (events faster than a threshold: the OS may have dropped some), after Deno's `rescan` flag, an
 * error or a folder change, and periodically while idle. A requested reconcile waits for quiet
 * (no event for `quietMs`, at most `maxDelayMs`), and every reconcile is spaced by the cost of the
 * last one, so a large folder is never reconciled back to back.
 */
import type { ReconcileReason } from "../sources/watched_folders.ts";

/** Timers, injectable so tests fire debounces and retries by hand. */
export interface Timers {
  set(callback: () => void, milliseconds: number): number;
  clear(id: number): void;
}

/** When a watcher reconciles while watching. */
export interface ReconcilePolicy {
  /** This many events within `burstWindowMs` make a burst: the OS may have dropped some. */
  burstEvents: number;
  burstWindowMs: number;
  /** A requested reconcile waits until no event came for this long… */
  quietMs: number;
  /** …but not longer than this after it was requested (a folder that never goes quiet). */
  maxDelayMs: number;
  /** The idle check's interval (a names-only comparison). */
  idleMs: number;
  /**
   * After a reconcile that took D ms, a requested one waits at least `burstSpacing` × D (at most
   * `maxSpacingMs`) and the idle one `idleSpacing` × D: while new names keep pouring in, at most
   * 1/6 of one core, and while idle 1/200, however large the folder.
   */
  burstSpacing: number;
  maxSpacingMs: number;
  idleSpacing: number;
}

/** The defaults (`deno task bench watcher` measures what a reconcile costs). */
export const defaultReconcilePolicy: ReconcilePolicy = {
  burstEvents: 50,
  burstWindowMs: 1_000,
  quietMs: 1_000,
  maxDelayMs: 30_000,
  idleMs: 5 * 60_000,
  burstSpacing: 5,
  maxSpacingMs: 30_000,
  idleSpacing: 200,
};

/** Which requested reconcile wins when several are pending (all but idle compare fingerprints). */
const urgency: Record<ReconcileReason, number> = {
  start: 9,
  reappeared: 8,
  overflow: 7,
  error: 6,
  replaced: 5,
  new_folder: 4,
  burst: 3,
  idle: 1,
};

/** What the schedule drives. */
interface ReconcileScheduleOptions {
  policy?: Partial<ReconcilePolicy>;
  timers: Timers;
  /** Wall-clock milliseconds (injectable). */
  now: () => number;
  /** "busy" while a reconcile runs (the request waits), "off" while the folder is not watched. */
  state: () => "ready" | "busy" | "off";
  /** Starts the reconcile (the watcher reports back with `finished`). */
  run: (reason: ReconcileReason) => void;
}

/** One watcher's reconcile timing. */
export class ReconcileSchedule {
  readonly policy: ReconcilePolicy;
  #requested: ReconcileReason | undefined;
  #requestedAt = 0;
  #timer: number | undefined;
  #idleTimer: number | undefined;
  #lastEventAt = Number.NEGATIVE_INFINITY;
  #windowStart = Number.NEGATIVE_INFINITY;
  #windowEvents = 0;
  #lastEnd = Number.NEGATIVE_INFINITY;
  #lastMs = 0;
  #closed = false;

  constructor(private readonly options: ReconcileScheduleOptions) {
    this.policy = { ...defaultReconcilePolicy, ...options.policy };
  }

  /**
   * Counts an OS event: any event delays a requested reconcile (the folder is not quiet); many
   * new, renamed or removed names at once are a burst. Writes into files already there (a log
   * appended to, a large copy) are not: what the OS can lose is names.
   */
  noteEvent(kind: Deno.FsEvent["kind"]): void {
    const now = this.options.now();
    this.#lastEventAt = now;
    if (kind === "modify" || kind === "access") return;
    if (now - this.#windowStart > this.policy.burstWindowMs) {
      this.#windowStart = now;
      this.#windowEvents = 0;
    }
    if (++this.#windowEvents === this.policy.burstEvents) this.request("burst");
  }

  /** Asks for a reconcile (the most urgent reason pending wins); it runs when quiet. */
  request(reason: ReconcileReason): void {
    if (this.#closed) return;
    if (!this.#requested || urgency[reason] > urgency[this.#requested]) this.#requested = reason;
    if (this.#requestedAt === 0) this.#requestedAt = this.options.now();
    this.#arm(this.policy.quietMs);
  }

  /** Forgets what was requested (a start reconcile covers it). */
  clear(): void {
    this.#requested = undefined;
    this.#requestedAt = 0;
  }

  /** A reconcile ended after `durationMs`: spaces the next ones and arms the idle check. */
  finished(durationMs: number): void {
    this.#lastMs = durationMs;
    this.#lastEnd = this.options.now();
    if (this.#closed) return;
    if (this.#idleTimer !== undefined) this.options.timers.clear(this.#idleTimer);
    const { idleMs, idleSpacing } = this.policy;
    this.#idleTimer = this.options.timers.set(() => {
      this.#idleTimer = undefined;
      this.request("idle");
    }, Math.max(idleMs, idleSpacing * durationMs));
  }

  /** Drops the timers. */
  close(): void {
    this.#closed = true;
    for (const id of [this.#timer, this.#idleTimer]) {
      if (id !== undefined) this.options.timers.clear(id);
    }
    this.#timer = this.#idleTimer = undefined;
  }

  #arm(milliseconds: number): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = this.options.timers.set(() => {
      this.#timer = undefined;
      this.#due();
    }, Math.max(10, Math.round(milliseconds)));
  }

  /** Runs the request when the folder is quiet and the spacing allows; else waits again. */
  #due(): void {
    const reason = this.#requested;
    if (!reason || this.#closed) return;
    const state = this.options.state();
    if (state === "off") return; // the start reconcile, when the folder is back, covers it
    if (state === "busy") return this.#arm(this.policy.quietMs);
    const now = this.options.now();
    const quietFor = now - this.#lastEventAt;
    const waited = now - this.#requestedAt;
    const { quietMs, maxDelayMs } = this.policy;
    if (quietFor < quietMs && waited < maxDelayMs) {
      return this.#arm(Math.min(quietMs - quietFor, maxDelayMs - waited));
    }
    const spacing = reason === "idle"
      ? this.policy.idleSpacing * this.#lastMs
      : Math.min(this.policy.burstSpacing * this.#lastMs, this.policy.maxSpacingMs);
    const wait = this.#lastEnd + spacing - now;
    if (wait > 0) return this.#arm(wait);
    this.clear();
    this.options.run(reason);
  }
}
