/**
 * The one way Radar's stores write to SQLite: every write commits or throws a `StorageError`
 * that the CLI prints as one line ("Cannot save the fact: the disk is full (/…/radar.db)").
 *
 * Why: node:sqlite's `StatementSync.get()` on `INSERT … RETURNING` hands back the first row
 * without stepping the statement to its end, so a failed commit (a full disk) is silently
 * swallowed. `run()` steps to completion and throws; ids come from `lastInsertRowid`.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { statement } from "./statements.ts";
import { databasePath, StorageError, storageFailure, toStorageError } from "./storage_failure.ts";

/** What one committed write did. */
export interface WriteResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
  /** The rowid of the last inserted row (meaningful only when `changes` > 0 after an INSERT). */
  id: number;
}

/**
 * Runs one INSERT/UPDATE/DELETE to completion. Outside a transaction it is committed when this
 * returns; any failure (full disk, read-only file, constraint) throws a StorageError.
 * `what` names the thing saved, for the message ("the fact", "the message").
 */
export function write(
  db: DatabaseSync,
  what: string,
  sql: string,
  ...params: SQLInputValue[]
): WriteResult {
  try {
    const result = statement(db, sql).run(...params);
    return { changes: Number(result.changes), id: Number(result.lastInsertRowid) };
  } catch (error) {
    throw toStorageError(db, what, error);
  }
}

/** Runs a cleanup DELETE whose one parameter is the cutoff `before`; returns how many rows went. */
export function deleteBefore(db: DatabaseSync, what: string, sql: string, before: Date): number {
  return write(db, what, sql, before.toISOString()).changes;
}

/** Runs an INSERT and returns the new row's id (committed, or a StorageError). */
export function insert(
  db: DatabaseSync,
  what: string,
  sql: string,
  ...params: SQLInputValue[]
): number {
  const result = write(db, what, sql, ...params);
  if (result.changes < 1) {
    throw new StorageError(
      `Cannot save ${what}: the database stored no row (${databasePath(db)})`,
      "other",
      databasePath(db),
    );
  }
  return result.id;
}

/** Runs an INSERT OR IGNORE: the new id, or undefined when a conflicting row was kept. */
export function insertUnlessPresent(
  db: DatabaseSync,
  what: string,
  sql: string,
  ...params: SQLInputValue[]
): number | undefined {
  const result = write(db, what, sql, ...params);
  return result.changes > 0 ? result.id : undefined;
}

/**
 * Runs `work` in an IMMEDIATE transaction: commits (or throws a StorageError when BEGIN or COMMIT
 * fails) and rolls back when `work` throws, then rethrows its error. Inside a transaction the
 * caller already opened, `work` simply joins it (the caller's COMMIT decides).
 */
export function transaction<T>(db: DatabaseSync, work: () => T, what = "the change"): T {
  if (db.isTransaction) return work();
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    throw toStorageError(db, what, error);
  }
  let result: T;
  try {
    result = work();
  } catch (error) {
    rollbackQuietly(db);
    // A statement of `work` can hit the full disk too (a large change spills pages early).
    throw isStorageTrouble(error) ? toStorageError(db, what, error) : error;
  }
  try {
    db.exec("COMMIT");
  } catch (error) {
    rollbackQuietly(db);
    throw toStorageError(db, what, error);
  }
  return result;
}

/** A raw node:sqlite error about the disk or the file (not a constraint or a bug in the SQL). */
function isStorageTrouble(error: unknown): boolean {
  if ((error as { code?: unknown })?.code !== "ERR_SQLITE_ERROR") return false;
  const failure = storageFailure(error);
  return failure === "disk_full" || failure === "io" || failure === "read_only" ||
    failure === "damaged";
}

/** SQLite may already have rolled back (e.g. on SQLITE_FULL); a second ROLLBACK must not mask. */
function rollbackQuietly(db: DatabaseSync): void {
  try {
    if (db.isTransaction) db.exec("ROLLBACK");
  } catch {
    // The original error is the one worth reporting.
  }
}
