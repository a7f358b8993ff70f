/**
 * The one way Radar's stores write to SQLite: every write commits or throws a `StorageError`
 * that the CLI prints as one line ("Cannot save the fact: the disk is full (/…/radar.db)").
 *
 * Why: node:sqlite's `StatementSync.get()` on `INSERT … RETURNING` hands back the first row
 * without stepping the statement to its end, so a failed commit (a full disk) is silently
 * swallowed. `run()` steps to completion and throws; ids come from `lastInsertRowid`.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { RadarError } from "../../core/errors.ts";
import { statement } from "./statements.ts";

/** Why a database operation failed, in words a person can act on. */
export type StorageFailure =
  | "disk_full"
  | "read_only"
  | "damaged"
  | "busy"
  | "io"
  | "constraint"
  | "other";

/** A write (or open) that did not commit; `message` is one line naming the file. */
export class StorageError extends RadarError {
  constructor(
    message: string,
    readonly failure: StorageFailure,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(message, 1, options);
    this.name = "StorageError";
  }
}

/** SQLite primary result codes (the low byte of an extended code). */
const sqliteCodes: Record<number, StorageFailure> = {
  3: "read_only", // SQLITE_PERM
  5: "busy", // SQLITE_BUSY
  6: "busy", // SQLITE_LOCKED
  8: "read_only", // SQLITE_READONLY
  10: "io", // SQLITE_IOERR
  11: "damaged", // SQLITE_CORRUPT
  13: "disk_full", // SQLITE_FULL
  19: "constraint", // SQLITE_CONSTRAINT
  26: "damaged", // SQLITE_NOTADB
};

/** Classifies an error thrown by node:sqlite (or the OS underneath it). */
export function storageFailure(error: unknown): StorageFailure {
  const code = (error as { errcode?: unknown })?.errcode;
  if (typeof code === "number" && sqliteCodes[code & 0xff]) return sqliteCodes[code & 0xff];
  const message = error instanceof Error ? error.message : String(error);
  if (/disk is full|no space left/i.test(message)) return "disk_full";
  if (/disk I\/O error/i.test(message)) return "io";
  if (/read-?only/i.test(message)) return "read_only";
  if (/not a database|malformed/i.test(message)) return "damaged";
  if (/locked|busy/i.test(message)) return "busy";
  return "other";
}

/** The reason part of the one-line message. */
export function describeFailure(failure: StorageFailure, error: unknown): string {
  switch (failure) {
    case "disk_full":
      return "the disk is full";
    case "read_only":
      return "the database or its folder is read-only";
    case "damaged":
      return "the database file is damaged (run `radar db check`; restore a backup made with " +
        "`radar db backup`)";
    case "busy":
      return "the database is locked by another process (try again)";
    case "io":
      return `the disk is full or failing (${errorText(error)})`;
    default:
      return errorText(error);
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

/** Why a database was opened read-only (set by `openDatabase`'s fallback). */
const readOnlyReasons = new WeakMap<DatabaseSync, string>();
/** The file a read-only snapshot was read from (its own location is ":memory:"). */
const snapshotPaths = new WeakMap<DatabaseSync, string>();

/** Records that `db` is a read-only view of `path` and why (the reason goes into write errors). */
export function markReadOnly(db: DatabaseSync, path: string, reason: string): void {
  readOnlyReasons.set(db, reason);
  snapshotPaths.set(db, path);
}

/** Why `db` was opened read-only, or undefined when it was opened for writing. */
export function readOnlyReason(db: DatabaseSync): string | undefined {
  return readOnlyReasons.get(db);
}

/** The database's file path, or ":memory:". */
export function databasePath(db: DatabaseSync): string {
  const snapshot = snapshotPaths.get(db);
  if (snapshot) return snapshot;
  try {
    return db.location() ?? ":memory:";
  } catch {
    return "(closed database)";
  }
}

/** Wraps a node:sqlite failure as a one-line StorageError (a StorageError passes through). */
export function toStorageError(db: DatabaseSync, what: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const failure = storageFailure(error);
  const path = databasePath(db);
  const reason = readOnlyReasons.get(db) ?? describeFailure(failure, error);
  return new StorageError(
    `Cannot save ${what}: ${reason} (${path})`,
    failure,
    path,
    { cause: error },
  );
}

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
