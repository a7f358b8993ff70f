/**
 * The daemon's guard against a damaged database: SQLite's quick check at start and once a day,
 * and any statement that meets corruption. A file found damaged (or already known to be) is not
 * written to again: every write is refused with one line, the sources that
 * write (folder watchers, mail, plugin folders) stop, ticks are skipped, the dashboard says so on
 * every page, and ONE notification goes out (remembered next to the file, so a restart does not
 * send it again).
 */
import { damagedDatabaseLine } from "../core/errors.ts";
import { systemTimers, type Timers } from "../adapters/file_watcher.ts";
import { markDamageNotified } from "../adapters/sqlite/damage_marker.ts";
import type { Radar } from "../runtime/open_radar.ts";
import type { Watcher } from "./daemon.ts";

/** How often the quick check runs while nothing reported damage. */
const dailyCheckMs = 24 * 60 * 60_000;

/** The guard: an event source for the daemon, and what the daemon asks it. */
export interface DatabaseGuard extends Watcher {
  /** Why the daemon must not write (the one line), or undefined while the file is sound. */
  problem(): string | undefined;
  /** `sources` that start only while the file is sound and stop when it is found damaged. */
  gate(sources: Watcher[]): Watcher[];
  /** The check, now (also run at start, daily, and after a statement met corruption). */
  check(): Promise<void>;
}

/** Builds the guard over the open Radar. */
export function databaseGuard(
  radar: Pick<Radar, "database" | "databasePath" | "logger" | "notifier" | "clock">,
  options: { timers?: Timers; checkEveryMs?: number } = {},
): DatabaseGuard {
  const timers = options.timers ?? systemTimers;
  const gated: Watcher[] = [];
  let problem: string | undefined;
  let timer: number | undefined;
  let soon: number | undefined;
  let unsubscribe: (() => void) | undefined;
  let notifying: Promise<void> | undefined;

  const damaged = (detail: string) => {
    if (problem) return;
    radar.database.stopWriting(detail);
    problem = radar.database.problem() ??
      `${damagedDatabaseLine(radar.databasePath, detail)} Radar stopped writing to it.`;
    radar.logger.error("the database is damaged; Radar stopped writing to it", {
      path: radar.databasePath,
      problem: detail,
    });
    for (const source of gated) source.close();
    notifying = notifyOnce();
  };

  const notifyOnce = async () => {
    const known = radar.database.damage();
    if (known?.notifiedAt) return;
    const delivery = await radar.notifier.send({
      title: "Radar: the database is damaged",
      message: problem!,
      priority: "high",
    }, AbortSignal.timeout(30_000));
    if (delivery.sent) markDamageNotified(radar.databasePath, radar.clock.now());
    else {
      radar.logger.warn("could not send the damaged-database notification", {
        error: delivery.error,
      });
    }
  };

  const check = () => {
    if (problem) return Promise.resolve(notifying);
    const known = radar.database.damage();
    if (known) damaged(known.problem);
    else {
      const result = radar.database.check();
      if (!result.ok) damaged(result.problem ?? "failed the integrity check");
    }
    return Promise.resolve(notifying);
  };

  return {
    // Before its first check too: a file already known to be damaged pauses the daemon at once.
    problem: () => problem ?? radar.database.problem(),
    gate(sources) {
      gated.push(...sources);
      return sources.map((source) => ({
        start: () => problem ? undefined : source.start(),
        close: () => source.close(),
      }));
    },
    check,
    start() {
      // Corruption met by any statement (SQLite's word is final): acted on at once, outside
      // that statement's own stack.
      unsubscribe = radar.database.onDamage((detail) => {
        soon ??= timers.set(() => {
          soon = undefined;
          damaged(detail);
        }, 0);
      });
      void check();
      const daily = () => {
        timer = timers.set(() => {
          void check();
          daily();
        }, options.checkEveryMs ?? dailyCheckMs);
      };
      daily();
    },
    close() {
      unsubscribe?.();
      for (const id of [timer, soon]) if (id !== undefined) timers.clear(id);
      timer = soon = undefined;
    },
  };
}
