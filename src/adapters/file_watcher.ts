/**
 * A durable folder watcher (Deno.watchFs) that reports finished files matching a pattern, and
 * never trusts the OS's event stream to be complete. Every file an OS event or a reconcile
 * reveals is recorded in a ledger (SQLite in the daemon) at once, and settling happens on the
 * stored row (size and mtime stable for `debounceMs`). A reconcile compares the folder with the
 * ledger (`folder_reconcile.ts`): at start (files that arrived while the daemon was down), and
 * while watching after every sign that events may be missing — a burst (events faster than a
 * threshold), Deno's `rescan` flag, a stream error, a folder appearing inside a recursive watch,
 * the folder being replaced — and periodically while idle. Reconciles are spaced by their own
 * cost (`ReconcilePolicy`), so a 100,000-file folder stays cheap.
 */
import { basename } from "node:path";
import type { Logger } from "../core/ports.ts";
import {
  isStartReconcile,
  type ReconcileReason,
  type SeenFile,
  type WatchLedger,
} from "../sources/watched_folders.ts";
import { folderIdentity, globToRegExp, isTemporaryName, statFile } from "./folder_listing.ts";
import { reconcileFolder } from "./folder_reconcile.ts";
import { type ReconcilePolicy, ReconcileSchedule, type Timers } from "./reconcile_schedule.ts";

export type { Timers };

/** Real timers. */
export const systemTimers: Timers = {
  set: (callback, milliseconds) => setTimeout(callback, milliseconds) as unknown as number,
  clear: (id) => clearTimeout(id),
};

/** The OS event stream of one folder (Deno.watchFs; tests wrap it). */
export type WatchFs = (folder: string, recursive: boolean) => AsyncIterable<Deno.FsEvent> & {
  close(): void;
};

/** Settings of one watcher. */
interface FolderWatcherOptions {
  /** Absolute folder path. */
  folder: string;
  /** Glob on the file name: `*.pdf`, `*.cb?` (case-insensitive). */
  pattern: string;
  recursive: boolean;
  ledger: WatchLedger;
  timers: Timers;
  logger: Logger;
  /** Wall-clock milliseconds (settling compares stored times; reconciles wait for quiet). */
  now?: () => number;
  /** How long a file's size and mtime must stay the same before it counts as finished. */
  debounceMs?: number;
  /** How often a missing folder is looked for again. */
  retryMs?: number;
  /** Files settled per pass (a burst is worked through in bounded passes). */
  settleBatch?: number;
  /** How soon a failed ledger write (a full disk) is tried again; nothing is dropped meanwhile. */
  writeRetryMs?: number;
  /** How long paths from OS events gather before one ledger write. */
  flushDelayMs?: number;
  /** Opens the OS event stream (default: Deno.watchFs). */
  watch?: WatchFs;
  /** When to reconcile while watching (defaults: `defaultReconcilePolicy`). */
  reconcile?: Partial<ReconcilePolicy>;
}

/** Paths collected from OS events before one write to the ledger, at most. */
const flushAt = 500;

/** Watches one folder; a missing folder is retried until it appears. */
export class FolderWatcher {
  #watcher: (AsyncIterable<Deno.FsEvent> & { close(): void }) | undefined;
  /** Paths from OS events not yet written to the ledger (flushed within one timer turn). */
  #touched = new Set<string>();
  #flushTimer: number | undefined;
  #settleTimer: number | undefined;
  #retry: number | undefined;
  /** Set while a failed write to the ledger waits for its retry. */
  #writeFailing = false;
  #closed = false;
  /** How the next start reconciles: first start, after the folder was missing, after an error. */
  #nextStart: ReconcileReason = "start";
  /** The watched folder's device:inode when the watch began (a replaced folder differs). */
  #identity: string | undefined;
  #running: Promise<void> | undefined;
  /** The loop reading the current OS stream; it ends when the stream is closed. */
  #consuming: Promise<void> | undefined;
  readonly #schedule: ReconcileSchedule;
  readonly #matcher: RegExp;
  readonly #now: () => number;
  readonly #watch: WatchFs;
  /** "watching", "missing" or "closed". */
  state: "starting" | "watching" | "missing" | "closed" = "starting";

  constructor(private readonly options: FolderWatcherOptions) {
    this.#matcher = globToRegExp(options.pattern);
    this.#now = options.now ?? Date.now;
    this.#schedule = new ReconcileSchedule({
      policy: options.reconcile,
      timers: options.timers,
      now: this.#now,
      state: () =>
        this.state !== "watching" || this.#closed ? "off" : this.#running ? "busy" : "ready",
      run: (reason) => void this.#reconcileNow(reason),
    });
    this.#watch = options.watch ??
      ((folder, recursive) => Deno.watchFs(folder, { recursive }));
  }

  /** Paths waiting to settle (stored in the ledger). */
  get pendingPaths(): string[] {
    this.#flush();
    return this.options.ledger.settling(10_000).map((file) => file.path);
  }

  /** The reconcile in progress, if any (tests await it). */
  whenReconciled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  /** Starts watching (or waiting for the folder), then reconciles what arrived meanwhile. */
  start(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    try {
      if (!Deno.statSync(this.options.folder).isDirectory) throw new Deno.errors.NotFound();
      this.#watcher = this.#watch(this.options.folder, this.options.recursive);
    } catch (error) {
      if (!folderIdentity(this.options.folder)) this.#missing("reappeared");
      else {
        // There but not watchable (the OS's watch limit, say): tried again, and said so.
        this.#warnFailure("cannot watch the folder; retrying", error);
        this.#missing("error");
      }
      return Promise.resolve();
    }
    this.#identity = folderIdentity(this.options.folder);
    this.state = "watching";
    this.#schedule.clear(); // the start reconcile covers what was asked for meanwhile
    this.options.logger.info("watching folder", { folder: this.options.folder });
    this.#consuming = this.#consume(this.#watcher);
    const reason = this.#nextStart;
    this.#nextStart = "reappeared";
    return this.#reconcileNow(reason);
  }

  /** Stops watching and drops timers (what was recorded stays in the ledger). */
  close(): void {
    this.#closed = true;
    this.state = "closed";
    this.#flush();
    this.#watcher?.close();
    this.#schedule.close();
    for (const id of [this.#flushTimer, this.#settleTimer, this.#retry]) {
      if (id !== undefined) this.options.timers.clear(id);
    }
    this.#flushTimer = this.#settleTimer = this.#retry = undefined;
  }

  /**
   * Asks for a reconcile: it runs once no event came for `quietMs` (at most `maxDelayMs` after
   * the first request) and no sooner than its spacing after the last one allows.
   */
  requestReconcile(reason: ReconcileReason): void {
    this.#schedule.request(reason);
  }

  /**
   * Compares the folder with the ledger now (see `reconcileFolder`); the first reconcile of a
   * folder ever records its content as the baseline, without events. Resolves when done.
   */
  reconcile(reason: ReconcileReason): Promise<void> {
    return this.#reconcileNow(reason);
  }

  /** Runs one settle pass now (tests; the timer calls it too). Returns files finished. */
  settle(): number {
    this.#flush();
    const { ledger } = this.options;
    const debounce = this.options.debounceMs ?? 2_000;
    const now = this.#now();
    const finished: SeenFile[] = [];
    const changing: SeenFile[] = [];
    const gone: string[] = [];
    const batch = ledger.settling(this.options.settleBatch ?? 5_000);
    for (const file of batch) {
      const current = statFile(file.path);
      if (!current) gone.push(file.path);
      else if (current.size !== file.size || current.mtimeMs !== file.mtimeMs) {
        changing.push(current);
      } else if (now - file.stableSinceMs >= debounce) finished.push(current);
    }
    if (gone.length) ledger.forget(gone);
    if (changing.length) ledger.restart(changing, now);
    if (finished.length) ledger.finish(finished);
    return finished.length;
  }

  #reconcileNow(reason: ReconcileReason): Promise<void> {
    if (this.#running) {
      // One at a time: this one runs after the current one ends.
      this.requestReconcile(reason);
      return this.#running;
    }
    const running = this.#runReconcile(reason).finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  async #runReconcile(requested: ReconcileReason): Promise<void> {
    const { ledger, folder, logger } = this.options;
    const started = performance.now();
    let reason = requested;
    try {
      this.#flush();
      const identity = folderIdentity(folder);
      if (!identity) return this.#stopped(); // gone: nothing is forgotten until it reappears
      if (!isStartReconcile(reason) && this.#identity && identity !== this.#identity) {
        reason = "replaced";
        await this.#rewatch(identity);
      }
      const baseline = !ledger.hasBaseline();
      const outcome = await reconcileFolder({
        folder,
        recursive: this.options.recursive,
        matcher: this.#matcher,
        ledger,
        compareFingerprints: reason !== "idle",
        baseline,
        now: this.#now,
      });
      const found = baseline ? 0 : outcome.found;
      const durationMs = performance.now() - started;
      logger.debug("folder reconciled", { folder, reason, ...outcome, ms: Math.round(durationMs) });
      ledger.countReconcile({ reason, found, at: new Date(this.#now()), durationMs });
      if (found && isStartReconcile(reason)) {
        logger.info("folder scan found files that arrived while nobody watched", {
          folder,
          reason,
          files: found,
        });
      } else if (found) {
        logger.warn("folder reconcile found files no OS event reported", {
          folder,
          reason,
          files: found,
        });
      }
      this.#scheduleSettle();
    } catch (error) {
      this.#warnFailure("reconciling the watched folder failed; retrying", error);
      this.requestReconcile(reason); // spaced by this attempt's cost, after quiet
    } finally {
      this.#schedule.finished(performance.now() - started);
    }
  }

  /** The folder at the path is another one now: watch that one (the old stream is closed). */
  async #rewatch(identity: string): Promise<void> {
    // Deno shares one OS watch per path until the old stream is really gone (its pending read
    // holds it): a new watch opened before that would stay on the old folder.
    const old = this.#watcher;
    const ended = this.#consuming;
    this.#watcher = undefined;
    old?.close();
    await ended;
    if (this.#closed) return;
    this.#watcher = this.#watch(this.options.folder, this.options.recursive);
    this.#identity = identity;
    this.#consuming = this.#consume(this.#watcher);
    this.options.logger.warn("watched folder was replaced; watching the new one", {
      folder: this.options.folder,
    });
  }

  /** The folder is gone (or its stream ended): wait for it; it is reconciled when back. */
  #stopped(): void {
    const old = this.#watcher;
    this.#watcher = undefined;
    old?.close();
    this.#missing();
  }

  /** Waits for the folder (warned once) and starts again; the start reconciles with `reason`. */
  #missing(reason: ReconcileReason = "reappeared"): void {
    if (this.#closed) return;
    if (this.state !== "missing" && reason === "reappeared") {
      this.options.logger.warn("watched folder is missing; waiting for it", {
        folder: this.options.folder,
      });
    }
    this.state = "missing";
    this.#nextStart = reason;
    if (this.#retry !== undefined) return;
    this.#retry = this.options.timers.set(() => {
      this.#retry = undefined;
      void this.start();
    }, this.options.retryMs ?? 60_000);
  }

  async #consume(watcher: AsyncIterable<Deno.FsEvent> & { close(): void }): Promise<void> {
    let failed = false;
    try {
      for await (const event of watcher) {
        this.#schedule.noteEvent(event.kind);
        if (event.flag === "rescan") {
          this.options.logger.warn("folder watcher dropped events; reconciling", {
            folder: this.options.folder,
          });
          this.requestReconcile("overflow");
          continue;
        }
        if (event.kind === "access") continue;
        for (const path of event.paths) this.#touch(path, event.kind);
      }
    } catch (error) {
      failed = true;
      this.options.logger.warn("folder watcher stopped", { error: (error as Error).message });
    }
    if (this.#closed || watcher !== this.#watcher) return; // closed, or replaced on purpose
    this.#watcher = undefined;
    // The stream ended: the folder went away, or the OS watcher failed. Either way, look again.
    this.#missing(failed && folderIdentity(this.options.folder) ? "error" : "reappeared");
  }

  #touch(path: string, kind: Deno.FsEvent["kind"]): void {
    if (path === this.options.folder) {
      // The watched folder itself was moved or removed: a reconcile sees what is there now.
      if (kind === "remove" || kind === "rename") this.requestReconcile("replaced");
      return;
    }
    const name = basename(path);
    if (isTemporaryName(name)) return;
    if (!this.#matcher.test(name)) {
      // A folder created or moved into a recursive watch: its files may have had no events.
      if (this.options.recursive && (kind === "create" || kind === "rename")) {
        try {
          if (Deno.statSync(path).isDirectory) this.requestReconcile("new_folder");
        } catch { /* gone again */ }
      }
      return;
    }
    this.#touched.add(path);
    if (this.#touched.size >= flushAt && !this.#writeFailing) this.#flush();
    else if (this.#flushTimer === undefined) this.#flushAfter(this.options.flushDelayMs ?? 50);
  }

  /**
   * Writes the paths touched by OS events to the ledger. When the write fails (a full disk),
   * the paths stay in memory and the write is tried again later: a file is never dropped.
   */
  #flush(): void {
    if (this.#flushTimer !== undefined) {
      this.options.timers.clear(this.#flushTimer);
      this.#flushTimer = undefined;
    }
    if (!this.#touched.size) return;
    const files: SeenFile[] = [];
    const gone: string[] = [];
    for (const path of this.#touched) {
      const file = statFile(path);
      if (file) files.push(file);
      else gone.push(path); // removed or renamed away: the ledger forgets it
    }
    try {
      if (files.length) this.options.ledger.record(files, this.#now());
      if (gone.length) this.options.ledger.forget(gone);
    } catch (error) {
      if (!this.#writeFailing) this.#warnFailure("recording watched files failed; retrying", error);
      this.#writeFailing = true;
      if (!this.#closed) this.#flushAfter(this.options.writeRetryMs ?? 5_000);
      return;
    }
    if (this.#writeFailing) {
      this.options.logger.info("recording watched files works again", {
        folder: this.options.folder,
        files: files.length,
      });
    }
    this.#writeFailing = false;
    this.#touched.clear();
    this.#scheduleSettle();
  }

  #flushAfter(milliseconds: number): void {
    this.#flushTimer = this.options.timers.set(() => {
      this.#flushTimer = undefined;
      this.#flush();
    }, milliseconds);
  }

  #warnFailure(message: string, error: unknown): void {
    this.options.logger.warn(message, {
      folder: this.options.folder,
      error: (error as Error).message,
    });
  }

  #scheduleSettle(): void {
    if (this.#settleTimer !== undefined || this.#closed) return;
    const debounce = this.options.debounceMs ?? 2_000;
    this.#settleTimer = this.options.timers.set(() => {
      this.#settleTimer = undefined;
      if (this.#closed) return;
      try {
        this.settle();
      } catch (error) {
        this.#warnFailure("settling watched files failed; retrying", error);
      }
      if (this.options.ledger.settling(1).length) this.#scheduleSettle();
    }, Math.max(10, Math.round(debounce / 2)));
  }
}
