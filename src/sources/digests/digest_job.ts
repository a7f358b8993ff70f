/**
 * The digests tick job: after `digests.hour` (local time) it writes yesterday's digest, and on
 * Mondays last week's, once each. A failure (model down) is recorded as the "digests" source's
 * health and retried with backoff. New digests are then embedded in the background (`embedNew`):
 * a slow or dead embedding server never holds up the tick or the heartbeat after it, and a tick
 * that wrote nothing calls no model at all. Past `budget.daily_tokens` a due digest waits (the
 * budget's one notification says so) and is written on the first tick after the budget resumes.
 */
import type { DigestsConfig } from "../../config/digests_schema.ts";
import { startOfZonedDay, zonedParts } from "../../core/zoned_time.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import type { Digest } from "../../core/source_ports.ts";
import type { BackgroundBudget } from "../../core/budget.ts";
import { type DigestWriterDependencies, writeDigest } from "./digest_writer.ts";
import { firstLine } from "../../core/errors.ts";

/** The health row of the digests. */
export const digestSourceName = "digests";

/** What the job needs. */
export interface DigestJobDependencies extends CheckDependencies, DigestWriterDependencies {
  settings: DigestsConfig;
  timeZone?: string;
  /** Embeds what has no vector yet (absent without an embedding model); must not throw. */
  embedNew?: (signal: AbortSignal) => Promise<unknown>;
  /** `budget:`: checked before writing, told what each model call spent. */
  budget?: BackgroundBudget;
}

type DuePeriod = [Digest["period"], Date, Date];

/** Periods kept waiting for the budget at most (two weeks of daily digests). */
const maxWaiting = 14;

/** The periods that should have a digest at `now`: [period, from, to]. */
export function duePeriods(
  settings: DigestsConfig,
  now: Date,
  timeZone?: string,
): Array<[Digest["period"], Date, Date]> {
  const local = zonedParts(now, timeZone);
  if (local.hour < settings.hour) return [];
  const today = startOfZonedDay(now, timeZone);
  const periods: Array<[Digest["period"], Date, Date]> = [];
  if (settings.daily) periods.push(["day", startOfZonedDay(now, timeZone, -1), today]);
  if (settings.weekly && local.weekday === 1) {
    periods.push(["week", startOfZonedDay(now, timeZone, -7), today]);
  }
  return periods;
}

/** The digests tick job. */
export class DigestJob {
  readonly name = "digests";
  #embedding: Promise<unknown> = Promise.resolve();
  /** Periods that were due while the budget was spent, by period and start. */
  #waiting = new Map<string, DuePeriod>();
  constructor(private readonly deps: DigestJobDependencies) {}

  /** Settles when the embedding started by the last run that wrote a digest has finished. */
  embedded(): Promise<void> {
    return this.#embedding.then(() => {});
  }

  /** Writes the due digests not written yet (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    const due = new Map(this.#waiting);
    for (const entry of duePeriods(deps.settings, now, deps.timeZone)) {
      due.set(periodKey(entry), entry);
    }
    const missing = [...due.values()].filter(([period, from]) => !deps.digests.find(period, from));
    this.#waiting = new Map(missing.map((entry) => [periodKey(entry), entry]));
    if (!missing.length || !isDue(deps.store, digestSourceName, now)) return;
    const paused = deps.budget?.pausedFor({ kind: "digest" });
    if (paused) {
      // Kept (bounded) for the first tick after the budget resumes, when "yesterday" has moved on.
      this.#waiting = new Map([...this.#waiting].slice(-maxWaiting));
      deps.logger.debug("digests wait", { reason: paused });
      return;
    }
    let written = 0;
    try {
      for (const [period, from, to] of missing) {
        await writeDigest(deps, period, from, to, signal);
        written++;
        this.#waiting.delete(periodKey([period, from, to]));
        deps.logger.info("digest written", { period, from: from.toISOString() });
      }
      const at = deps.clock.now();
      deps.store.recordSuccess(digestSourceName, at, at);
    } catch (error) {
      recordCheckFailure(deps, digestSourceName, 60, firstLine(error));
    }
    if (written && deps.embedNew) {
      const previous = this.#embedding;
      // Not awaited: the tick goes on; one embedding at a time.
      this.#embedding = previous.then(() => deps.embedNew!(signal)).catch((error) =>
        deps.logger.warn("digest embedding failed", { error: (error as Error).message })
      );
    }
  }
}

function periodKey([period, from]: DuePeriod): string {
  return `${period}:${from.toISOString()}`;
}
