/** The system clock adapter. */
import type { Clock } from "../core/ports.ts";

/** Reads the real time. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current: Date) {}
  /** The current fake time. */
  now(): Date {
    return new Date(this.current);
  }
  /** Moves time forward. */
  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
  /** Jumps to a time. */
  set(at: Date): void {
    this.current = new Date(at);
  }
}

/** Waits `milliseconds` of real time (the `sleep` port of retries, polls and follows). */
export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
