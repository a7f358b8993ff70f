/**
 * The throttle on the dashboard token, the one secret a person may choose (`web.auth_token`):
 * five wrong guesses a minute from one source address, then that address's token checks (login
 * form, bearer, session cookie: the cookie is derived from the token) answer 429 until the minute
 * has passed. Other addresses are not slowed down.
 *
 * Secrets Radar draws itself are never throttled: login codes (24 random bytes) and the phone's
 * buttons (`/act/SECRET`, 32 random bytes, single-use) cannot be guessed, so a throttle would
 * protect nothing and only let forged requests lock out the real ones.
 */
import type { Context } from "hono";
import type { Clock } from "../../src/core/ports.ts";

/** Failures allowed per source and window. */
const maxFailuresPerMinute = 5;

/** Sources remembered at most (a flood of addresses drops the oldest). */
const maxSources = 10_000;

/**
 * Where a request comes from: the connection's address (Deno.serve's `remoteAddr`), never a
 * header; "unknown" when served without one (tests' `app.request`).
 */
export function requestSource(c: Context): string {
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}

/** Counts failed token checks per source in a sliding minute. */
export class FailureThrottle {
  readonly #clock: Clock;
  readonly #failures = new Map<string, number[]>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** True while too many token checks from `source` failed in the last minute. */
  blocked(source: string): boolean {
    const now = this.#clock.now().getTime();
    const recent = (this.#failures.get(source) ?? []).filter((at) => now - at < 60_000);
    if (recent.length) this.#failures.set(source, recent);
    else this.#failures.delete(source);
    return recent.length >= maxFailuresPerMinute;
  }

  /** Records one failed check from `source`. */
  fail(source: string): void {
    const failures = this.#failures.get(source) ?? [];
    this.#failures.delete(source); // re-inserted last: the map stays in order of last failure
    failures.push(this.#clock.now().getTime());
    this.#failures.set(source, failures.slice(-maxFailuresPerMinute));
    while (this.#failures.size > maxSources) {
      this.#failures.delete(this.#failures.keys().next().value!);
    }
  }
}
