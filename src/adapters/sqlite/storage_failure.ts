/**
 * What a failed SQLite operation means, in words a person can act on: the failure kinds (full
 * disk, read-only, damaged…), the one-line `StorageError`, which database a connection reads
 * (snapshots included) and why it is read-only, and corruption as a `DatabaseDamagedError` whose
 * listeners hear of it (the daemon's guard checks the file at once).
 */
import type { DatabaseSync } from "node:sqlite";
import { damageAdvice, DatabaseDamagedError, firstLine, RadarError } from "../../core/errors.ts";

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
  if (error instanceof DatabaseDamagedError) return "damaged";
  if (error instanceof StorageError) return error.failure;
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
      return `the database file is damaged (${firstLine(error)}): ${damageAdvice}`;
    case "busy":
      return "the database is locked by another process (try again)";
    case "io":
      return `the disk is full or failing (${firstLine(error)})`;
    default:
      return firstLine(error);
  }
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

/** Who hears about corruption met on a database (the daemon's guard checks it at once). */
const damageListeners = new WeakMap<DatabaseSync, Set<(error: DatabaseDamagedError) => void>>();

/** Calls `listener` whenever a statement on `db` meets corruption; returns the unsubscribe. */
export function onDamage(
  db: DatabaseSync,
  listener: (error: DatabaseDamagedError) => void,
): () => void {
  let listeners = damageListeners.get(db);
  if (!listeners) damageListeners.set(db, listeners = new Set());
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A node:sqlite error as what it means: corruption becomes one `DatabaseDamagedError` naming the
 * file (its listeners told); anything else is returned as it is.
 */
export function asDamage(db: DatabaseSync, error: unknown): unknown {
  if (error instanceof DatabaseDamagedError || storageFailure(error) !== "damaged") return error;
  const damaged = new DatabaseDamagedError(databasePath(db), firstLine(error), { cause: error });
  for (const listener of damageListeners.get(db) ?? []) {
    try {
      listener(damaged);
    } catch {
      // A listener's own trouble never hides the damage.
    }
  }
  return damaged;
}

/**
 * Wraps a node:sqlite failure as a one-line StorageError (a StorageError passes through);
 * corruption becomes a `DatabaseDamagedError`.
 */
export function toStorageError(
  db: DatabaseSync,
  what: string,
  error: unknown,
): StorageError | DatabaseDamagedError {
  if (error instanceof StorageError || error instanceof DatabaseDamagedError) return error;
  const failure = storageFailure(error);
  if (failure === "damaged") return asDamage(db, error) as DatabaseDamagedError;
  const path = databasePath(db);
  const reason = readOnlyReasons.get(db) ?? describeFailure(failure, error);
  return new StorageError(
    `Cannot save ${what}: ${reason} (${path})`,
    failure,
    path,
    { cause: error },
  );
}
