/**
 * One throttle for every credential check (login form, login code, bearer, session cookie):
 * five failures a minute, then every check answers 429 until the minute has passed.
 */
import type { Clock } from "../../src/core/ports.ts";

/** Failures allowed per window. */
const maxFailuresPerMinute = 5;

/** Counts failed credential checks in a sliding minute. */
export class FailureThrottle {
  readonly #clock: Clock;
  #failures: number[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** True while too many checks failed in the last minute. */
  blocked(): boolean {
    const now = this.#clock.now().getTime();
    this.#failures = this.#failures.filter((at) => now - at < 60_000);
    return this.#failures.length >= maxFailuresPerMinute;
  }

  /** Records one failed check. */
  fail(): void {
    this.#failures.push(this.#clock.now().getTime());
  }
}
