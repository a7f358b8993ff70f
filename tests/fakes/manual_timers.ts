/** Timers that fire only when a test says so. */
import type { Timers } from "../../src/adapters/file_watcher.ts";

/** A Timers fake: `fireAll()` runs every pending callback. */
export class ManualTimers implements Timers {
  #next = 1;
  readonly pending = new Map<number, { callback: () => void; milliseconds: number }>();

  set(callback: () => void, milliseconds: number): number {
    const id = this.#next++;
    this.pending.set(id, { callback, milliseconds });
    return id;
  }

  clear(id: number): void {
    this.pending.delete(id);
  }

  /** Runs the callbacks pending now (not those they schedule). */
  fireAll(): void {
    const due = [...this.pending.entries()];
    for (const [id] of due) this.pending.delete(id);
    for (const [, timer] of due) timer.callback();
  }
}
