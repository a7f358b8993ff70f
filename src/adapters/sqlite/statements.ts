/**
 * Prepared statements kept per database and SQL text: preparing costs 30–70 µs, a noticeable
 * share of a dashboard request that runs a handful of them. Every statement handed out turns
 * SQLite's corruption errors into one `DatabaseDamagedError` naming the file (reads included:
 * a damaged page is found by whatever touches it first).
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { asDamage } from "./storage_failure.ts";

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** The most statements kept per database (SQL built from filters has a few variants each). */
const maxCached = 200;

/** The prepared statement for `sql` on `db`, prepared once. */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    if (cache.size >= maxCached) cache.clear();
    try {
      prepared = namingDamage(db, db.prepare(sql));
    } catch (error) {
      throw asDamage(db, error);
    }
    cache.set(sql, prepared);
  }
  return prepared;
}

/**
 * `all`, `get` and `run` of `prepared`, with corruption named. (Not `iterate`: on Deno 2.9.6 its
 * iterator ends quietly at a damaged page instead of throwing, so Radar reads pages with `all`.)
 */
function namingDamage(db: DatabaseSync, prepared: StatementSync): StatementSync {
  const guard = <A extends unknown[], R>(call: (...args: A) => R) => (...args: A): R => {
    try {
      return call(...args);
    } catch (error) {
      throw asDamage(db, error);
    }
  };
  return Object.assign(Object.create(prepared) as StatementSync, {
    all: guard(prepared.all.bind(prepared)),
    get: guard(prepared.get.bind(prepared)),
    run: guard(prepared.run.bind(prepared)),
  });
}
