/**
 * A per-service request budget: at most `perHour` requests in any sliding hour (ComicVine allows
 * 200 an hour per resource and blocks clients that go over). Times come from the caller's clock.
 * Pure; the count lives as long as the process.
 */

/** A sliding-hour request counter. */
export class HourlyLimit {
  #times: number[] = [];
  #perHour: number;

  constructor(perHour: number) {
    this.#perHour = perHour;
  }

  /** Takes a request slot at `nowMs`, or says how many minutes until one is free. */
  take(nowMs: number): { ok: true } | { ok: false; minutes: number } {
    const hourAgo = nowMs - 3_600_000;
    this.#times = this.#times.filter((time) => time > hourAgo);
    if (this.#times.length >= this.#perHour) {
      return { ok: false, minutes: Math.max(1, Math.ceil((this.#times[0] - hourAgo) / 60_000)) };
    }
    this.#times.push(nowMs);
    return { ok: true };
  }
}
