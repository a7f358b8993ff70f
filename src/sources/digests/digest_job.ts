/**
 * The digests tick job: after `digests.hour` (local time) it writes yesterday's digest, and on
 * Mondays last week's, once each. A failure (model down) is recorded as the "digests" source's
 * health and retried with backoff.
 */
import type { DigestsConfig } from "../../config/digests_schema.ts";
import { startOfZonedDay, zonedParts } from "../../core/zoned_time.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import type { Digest } from "./digest_store.ts";
import { type DigestWriterDependencies, writeDigest } from "./digest_writer.ts";

/** The health row of the digests. */
export const digestSourceName = "digests";

/** What the job needs. */
export interface DigestJobDependencies extends CheckDependencies, DigestWriterDependencies {
  settings: DigestsConfig;
  timeZone?: string;
}

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
  const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
  if (settings.weekly && weekday === 1) {
    periods.push(["week", startOfZonedDay(now, timeZone, -7), today]);
  }
  return periods;
}

/** The digests tick job. */
export class DigestJob {
  readonly name = "digests";
  constructor(private readonly deps: DigestJobDependencies) {}

  /** Writes the due digests not written yet (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    const missing = duePeriods(deps.settings, now, deps.timeZone)
      .filter(([period, from]) => !deps.digests.find(period, from));
    if (!missing.length || !isDue(deps.store, digestSourceName, now)) return;
    try {
      for (const [period, from, to] of missing) {
        await writeDigest(deps, period, from, to, signal);
        deps.logger.info("digest written", { period, from: from.toISOString() });
      }
      const at = deps.clock.now();
      deps.store.recordSuccess(digestSourceName, at, at);
    } catch (error) {
      recordCheckFailure(deps, digestSourceName, 60, (error as Error).message.split("\n")[0]);
    }
  }
}
