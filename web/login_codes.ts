/**
 * One-time login codes: what a login link carries instead of the token. A code works once and
 * for five minutes, so a link left in a terminal log or shell history is useless after use.
 */
import type { Clock } from "../src/core/ports.ts";
import { newSecret } from "./dashboard_token.ts";

/** How long a code is valid. */
export const loginCodeLifetimeMs = 5 * 60_000;

/** Outstanding codes kept at most (the oldest are dropped). */
const maxOutstanding = 20;

/** Issues and redeems one-time codes (in memory: a daemon restart voids them). */
export class LoginCodes {
  readonly #clock: Clock;
  readonly #codes = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** A fresh code, valid once for `loginCodeLifetimeMs`. */
  issue(): string {
    this.#prune();
    const code = newSecret(24);
    this.#codes.set(code, this.#clock.now().getTime() + loginCodeLifetimeMs);
    while (this.#codes.size > maxOutstanding) {
      this.#codes.delete(this.#codes.keys().next().value!);
    }
    return code;
  }

  /** True when `code` was issued, has not expired and was not used; it is used up either way. */
  redeem(code: string): boolean {
    this.#prune();
    const expires = this.#codes.get(code);
    this.#codes.delete(code);
    return expires !== undefined;
  }

  #prune(): void {
    const now = this.#clock.now().getTime();
    for (const [code, expires] of this.#codes) if (expires <= now) this.#codes.delete(code);
  }
}
