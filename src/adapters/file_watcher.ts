/** A debounced folder watcher (Deno.watchFs) that reports finished files matching a pattern. */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { basename } from "node:path";
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

/** Settings of one watcher. */
export interface FolderWatcherOptions {
  /** Absolute folder path. */
  folder: string;
  /** Glob on the file name: `*.pdf`, `*.cb?` (case-insensitive). */
  pattern: string;
  recursive: boolean;
  onFile: (file: WatchedFile) => void;
  timers: Timers;
  logger: Logger;
  /** Quiet time after the last change before a file counts as finished. */
  debounceMs?: number;
  /** How often a missing folder is looked for again. */
  retryMs?: number;
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

/** Watches one folder; a missing folder is retried until it appears. */
export class FolderWatcher {
  #watcher: Deno.FsWatcher | undefined;
  #pending = new Map<string, number>();
  #seen = new Map<string, string>();
  #retry: number | undefined;
  #closed = false;
  readonly #matcher: RegExp;
  /** "watching", "missing" or "closed". */
  state: "starting" | "watching" | "missing" | "closed" = "starting";

  constructor(private readonly options: FolderWatcherOptions) {
    this.#matcher = globToRegExp(options.pattern);
  }

  /** Paths waiting for their debounce to end. */
  get pendingPaths(): string[] {
    return [...this.#pending.keys()];
  }

  /** Starts watching (or waiting for the folder). */
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
  }

  /** Stops watching and drops pending timers. */
  close(): void {
    this.#closed = true;
    this.state = "closed";
    this.#watcher?.close();
    for (const id of this.#pending.values()) this.options.timers.clear(id);
    this.#pending.clear();
    if (this.#retry !== undefined) this.options.timers.clear(this.#retry);
  }

  #missing(): void {
    if (this.state !== "missing") {
      this.options.logger.warn("watched folder is missing; waiting for it", {
        folder: this.options.folder,
      });
    }
    this.state = "missing";
    this.#retry = this.options.timers.set(() => {
      this.#retry = undefined;
      this.start();
    }, this.options.retryMs ?? 60_000);
  }

  async #consume(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) {
        if (event.kind === "remove" || event.kind === "access") continue;
        for (const path of event.paths) this.#touch(path);
      }
    } catch (error) {
      this.options.logger.warn("folder watcher stopped", { error: (error as Error).message });
    }
    if (!this.#closed) this.#missing(); // the folder went away: wait for it again
  }

  #touch(path: string): void {
    const name = basename(path);
    if (isTemporaryName(name) || !this.#matcher.test(name)) return;
    const previous = this.#pending.get(path);
    if (previous !== undefined) this.options.timers.clear(previous);
    this.#pending.set(
      path,
      this.options.timers.set(() => this.#settle(path), this.options.debounceMs ?? 2_000),
    );
  }

  #settle(path: string): void {
    this.#pending.delete(path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch {
      return; // gone again (renamed, deleted)
    }
    if (!info.isFile) return;
    const fingerprint = `${info.size}:${info.mtime?.getTime() ?? 0}`;
    if (this.#seen.get(path) === fingerprint) return;
    this.#seen.set(path, fingerprint);
    if (this.#seen.size > 10_000) this.#seen.delete(this.#seen.keys().next().value!);
    this.options.onFile({ path, size: info.size });
  }
}
