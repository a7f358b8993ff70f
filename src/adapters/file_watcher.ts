/**
 * A durable folder watcher (Deno.watchFs) that reports finished files matching a pattern.
 * Nothing lives only in memory: every file an OS event or a scan reveals is recorded in a ledger
 * (SQLite in the daemon) at once, and settling happens on the stored row (size and mtime stable
 * across checks for `debounceMs`). The folder is scanned at start against what the ledger already
 * knows (files that arrived while the daemon was down), and again whenever Deno reports `rescan`
 * (its watcher dropped events) or the folder reappears.
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { basename, join } from "node:path";
import type { Logger } from "../core/ports.ts";

/** Timers, injectable so tests fire debounces and retries by hand. */
export interface Timers {
  set(callback: () => void, milliseconds: number): number;
  clear(id: number): void;
}

/** Real timers. */
export const systemTimers: Timers = {
  set: (callback, milliseconds) => setTimeout(callback, milliseconds) as unknown as number,
  clear: (id) => clearTimeout(id),
};

/** A finished file the watcher reports once. */
export interface WatchedFile {
  path: string;
  size: number;
}

/** A file as the ledger stores it: its path and fingerprint. */
export interface SeenFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** A stored file that is still settling. */
export interface SettlingFile extends SeenFile {
  stableSinceMs: number;
}

/** What a scan found that the ledger did not know. */
export type ScanReason = "start" | "rescan" | "reappeared";

/** The watcher's durable memory of one folder (SQLite in the daemon; a Map in unit tests). */
export interface WatchLedger {
  /** Records seen files: new ones and changed ones settle again. Returns how many were new. */
  record(files: readonly SeenFile[], nowMs: number, options?: { baseline?: boolean }): number;
  /** Up to `limit` settling files, oldest first. */
  settling(limit: number): SettlingFile[];
  /** Files still changing: their new fingerprint, stable from `nowMs`. */
  restart(files: readonly SeenFile[], nowMs: number): void;
  /** Forgets files that are gone. */
  forget(paths: readonly string[]): void;
  /** Marks settled files finished and queues their events, in one transaction. */
  finish(files: readonly SeenFile[]): void;
  /** Every known file: path → fingerprint. */
  known(): Map<string, SeenFile>;
  /** True once the folder was scanned before (its content then is the baseline, not news). */
  hasBaseline(): boolean;
  /** Counts a scan: why, and how many files only the scan found. */
  countScan(reason: ScanReason, found: number, at: Date): void;
}

/** Port: the durable memory of every watched folder. */
export interface WatchedFolders {
  /** One folder's ledger; `queue` runs in the transaction that marks settled files queued. */
  ledger(folder: string, queue: (files: readonly SeenFile[]) => void): WatchLedger;
  stats(folder: string): WatcherStats;
}

/** A watched folder's counters, for `radar status`. */
export interface WatcherStats {
  folder: string;
  /** Scans at start or when the folder reappeared. */
  scans: number;
  /** Scans because the OS watcher dropped events. */
  rescans: number;
  /** Files only a scan found (arrived while down, or their event was dropped). */
  recovered: number;
  /** Files queued as events. */
  queued: number;
  settling: number;
  lastScanAt?: string;
}

/** Settings of one watcher. */
export interface FolderWatcherOptions {
  /** Absolute folder path. */
  folder: string;
  /** Glob on the file name: `*.pdf`, `*.cb?` (case-insensitive). */
  pattern: string;
  recursive: boolean;
  ledger: WatchLedger;
  timers: Timers;
  logger: Logger;
  /** Wall-clock milliseconds (settling compares stored times). */
  now?: () => number;
  /** How long a file's size and mtime must stay the same before it counts as finished. */
  debounceMs?: number;
  /** How often a missing folder is looked for again. */
  retryMs?: number;
  /** Files settled per pass (a burst is worked through in bounded passes). */
  settleBatch?: number;
  /** How soon a failed ledger write (a full disk) is tried again; nothing is dropped meanwhile. */
  writeRetryMs?: number;
}

/** Partial or temporary files that are not final yet (browsers, rsync, editors). */
export function isTemporaryName(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") ||
    /\.(crdownload|part|partial|download|tmp|temp|swp)$/i.test(name);
}

/** A file-name glob (`*`, `?`, `[abc]`, `[!abc]`, `{a,b}`) as a case-insensitive RegExp (npm picomatch). */
export function globToRegExp(pattern: string): RegExp {
  return picomatch.makeRe(pattern.replaceAll("[!", "[^"), { nocase: true, dot: true });
}

/** Paths collected from OS events before one write to the ledger. */
const flushAt = 500;

/** Watches one folder; a missing folder is retried until it appears. */
export class FolderWatcher {
  #watcher: Deno.FsWatcher | undefined;
  /** Paths from OS events not yet written to the ledger (flushed within one timer turn). */
  #touched = new Set<string>();
  #flushTimer: number | undefined;
  #settleTimer: number | undefined;
  #retry: number | undefined;
  #rescanTimer: number | undefined;
  /** Set while a failed write to the ledger waits for its retry. */
  #writeFailing = false;
  #closed = false;
  #wasMissing = false;
  readonly #matcher: RegExp;
  readonly #now: () => number;
  /** "watching", "missing" or "closed". */
  state: "starting" | "watching" | "missing" | "closed" = "starting";

  constructor(private readonly options: FolderWatcherOptions) {
    this.#matcher = globToRegExp(options.pattern);
    this.#now = options.now ?? Date.now;
  }

  /** Paths waiting to settle (stored in the ledger). */
  get pendingPaths(): string[] {
    this.#flush();
    return this.options.ledger.settling(10_000).map((file) => file.path);
  }

  /** Starts watching (or waiting for the folder), then scans what arrived meanwhile. */
  start(): void {
    if (this.#closed) return;
    try {
      if (!Deno.statSync(this.options.folder).isDirectory) throw new Deno.errors.NotFound();
      this.#watcher = Deno.watchFs(this.options.folder, { recursive: this.options.recursive });
    } catch {
      this.#missing();
      return;
    }
    this.state = "watching";
    this.options.logger.info("watching folder", { folder: this.options.folder });
    void this.#consume(this.#watcher);
    this.#scanOrRetry(this.#wasMissing ? "reappeared" : "start");
  }

  /** Stops watching and drops timers (what was recorded stays in the ledger). */
  close(): void {
    this.#closed = true;
    this.state = "closed";
    this.#flush();
    this.#watcher?.close();
    for (const id of [this.#flushTimer, this.#settleTimer, this.#retry, this.#rescanTimer]) {
      if (id !== undefined) this.options.timers.clear(id);
    }
    this.#flushTimer =
      this.#settleTimer =
      this.#retry =
      this.#rescanTimer =
        undefined;
  }

  /**
   * Compares the folder with the ledger: unknown files settle (counted as found by the scan),
   * changed ones settle again, vanished ones are forgotten. The first scan of a folder ever
   * records its content as the baseline, without events. Returns how many files were new.
   */
  scan(reason: ScanReason): number {
    const { ledger } = this.options;
    this.#flush();
    const baseline = !ledger.hasBaseline();
    const known = ledger.known();
    const found: SeenFile[] = [];
    const present = new Set<string>();
    for (const file of this.#walk(this.options.folder)) {
      present.add(file.path);
      const before = known.get(file.path);
      if (before && before.size === file.size && before.mtimeMs === file.mtimeMs) continue;
      found.push(file);
    }
    const gone = [...known.keys()].filter((path) => !present.has(path));
    const now = this.#now();
    const added = ledger.record(found, now, { baseline });
    if (gone.length) ledger.forget(gone);
    ledger.countScan(reason, baseline ? 0 : added, new Date(now));
    if (added && !baseline) {
      this.options.logger.info("folder scan found files no event reported", {
        folder: this.options.folder,
        reason,
        files: added,
      });
    }
    this.#scheduleSettle();
    return added;
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

  #missing(): void {
    if (this.state !== "missing") {
      this.options.logger.warn("watched folder is missing; waiting for it", {
        folder: this.options.folder,
      });
    }
    this.state = "missing";
    this.#wasMissing = true;
    this.#retry = this.options.timers.set(() => {
      this.#retry = undefined;
      this.start();
    }, this.options.retryMs ?? 60_000);
  }

  async #consume(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) {
        if (event.flag === "rescan") {
          this.#requestRescan();
          continue;
        }
        if (event.kind === "access") continue;
        for (const path of event.paths) this.#touch(path);
      }
    } catch (error) {
      this.options.logger.warn("folder watcher stopped", { error: (error as Error).message });
    }
    if (!this.#closed) this.#missing(); // the folder went away: wait for it again
  }

  /** Deno dropped events (a slow consumer or a kernel queue overflow): look at everything. */
  #requestRescan(): void {
    if (this.#rescanTimer !== undefined || this.#closed) return;
    this.options.logger.warn("folder watcher dropped events; rescanning", {
      folder: this.options.folder,
    });
    this.#rescanTimer = this.options.timers.set(() => {
      this.#rescanTimer = undefined;
      if (!this.#closed) this.#scanOrRetry("rescan");
    }, 50);
  }

  /** A scan whose ledger write failed (a full disk) runs again later: the folder is the truth. */
  #scanOrRetry(reason: ScanReason): void {
    try {
      this.scan(reason);
    } catch (error) {
      this.#writeFailed("scanning the watched folder failed; retrying", error);
      if (this.#rescanTimer !== undefined || this.#closed) return;
      this.#rescanTimer = this.options.timers.set(() => {
        this.#rescanTimer = undefined;
        if (!this.#closed) this.#scanOrRetry(reason);
      }, this.options.writeRetryMs ?? 5_000);
    }
  }

  #writeFailed(message: string, error: unknown): void {
    this.options.logger.warn(message, {
      folder: this.options.folder,
      error: (error as Error).message,
    });
  }

  #touch(path: string): void {
    const name = basename(path);
    if (isTemporaryName(name) || !this.#matcher.test(name)) return;
    this.#touched.add(path);
    if (this.#touched.size >= flushAt && !this.#writeFailing) this.#flush();
    else if (this.#flushTimer === undefined) {
      this.#flushTimer = this.options.timers.set(() => {
        this.#flushTimer = undefined;
        this.#flush();
      }, 0);
    }
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
      if (!this.#writeFailing) this.#writeFailed("recording watched files failed; retrying", error);
      this.#writeFailing = true;
      if (!this.#closed) {
        this.#flushTimer = this.options.timers.set(() => {
          this.#flushTimer = undefined;
          this.#flush();
        }, this.options.writeRetryMs ?? 5_000);
      }
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

  #scheduleSettle(): void {
    if (this.#settleTimer !== undefined || this.#closed) return;
    const debounce = this.options.debounceMs ?? 2_000;
    this.#settleTimer = this.options.timers.set(() => {
      this.#settleTimer = undefined;
      if (this.#closed) return;
      try {
        this.settle();
      } catch (error) {
        this.options.logger.warn("settling watched files failed; retrying", {
          folder: this.options.folder,
          error: (error as Error).message,
        });
      }
      if (this.options.ledger.settling(1).length) this.#scheduleSettle();
    }, Math.max(10, Math.round(debounce / 2)));
  }

  /** Matching, final files under `folder` (recursing when configured; symlinks not followed). */
  *#walk(folder: string): Generator<SeenFile> {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)];
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) {
        if (this.options.recursive) yield* this.#walk(path);
        continue;
      }
      if (isTemporaryName(entry.name) || !this.#matcher.test(entry.name)) continue;
      const file = statFile(path);
      if (file) yield file;
    }
  }
}

/** A regular file's fingerprint, or undefined when it is gone or not a file. */
function statFile(path: string): SeenFile | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return undefined;
    return { path, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  } catch {
    return undefined;
  }
}
