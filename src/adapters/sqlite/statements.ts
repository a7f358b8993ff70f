/**
 * Prepared statements kept per database and SQL text: preparing costs 30–70 µs, a noticeable
 * share of a dashboard request that runs a handful of them.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

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
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
