/**
 * Opens Radar's single SQLite file (WAL, foreign keys, busy timeout) and migrates it with the
 * steps it is handed. This module loads no migration: `openCurrentDatabase` (the runtime) loads
 * them at run time only when the file is behind `newestSchemaVersion`; `openDatabase`
 * (database.ts: the CLI's own tools, tests) always hands them over.
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { damageAdvice, DatabaseDamagedError, RadarError } from "../../core/errors.ts";
import { describeFailure, markReadOnly, StorageError, storageFailure } from "./storage_failure.ts";
import { isFile } from "../../config/quiet_stat.ts";
import { removeQuietly } from "../os/quiet_fs.ts";

/** One schema step; `version` is its position in `PRAGMA user_version`. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Runs after `sql`, in the same transaction, for a step that reads the schema it changes (a
   * table rebuilt from its stored definition keeps the columns other steps added).
   */
  apply?: (db: DatabaseSync) => void;
}

/**
 * Makes `db` refuse every write from now on (`query_only`): each one fails with one line saying
 * the file failed an integrity check (`problem`) and what to do. Reads go on.
 */
export function stopWriting(db: DatabaseSync, path: string, problem: string): void {
  db.exec("PRAGMA query_only = ON");
  markReadOnly(
    db,
    path,
    `the database is damaged (${problem.split("\n")[0].slice(0, 200)}), so Radar stopped writing ` +
      `to it: ${damageAdvice}`,
  );
}

/**
 * The schema version this Radar migrates to: the newest step in `./migrations/index.ts` (a test
 * checks they agree; raise it with each new migration).
 */
export const newestSchemaVersion = 53;

/**
 * Opens (and creates) the database at `path` and migrates it with `steps` (none when the file
 * is known to be at `newestSchemaVersion`); `:memory:` works for tests. When the file or its
 * folder is read-only, opens it read-only instead (reads work, writes fail with one line).
 * A damaged file gives one line naming the path and the recovery.
 */
export function openDatabaseFile(path: string, steps: readonly Migration[]): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA busy_timeout = 5000");
    migrate(db, steps, newestSchemaVersion);
    if (!canWrite(db)) {
      // SQLite opened the file itself read-only (it could use the -wal and -shm already there).
      markReadOnly(
        db,
        path,
        "the database or its folder is read-only (Radar opened it for reading only)",
      );
    }
    return db;
  } catch (error) {
    closeQuietly(db);
    const failure = error instanceof StorageError ? error.failure : storageFailure(error);
    const fallback = failure === "read_only" || failure === "io" || failure === "disk_full" ||
      isCannotOpen(error);
    if (fallback && isFile(path)) return openReadOnly(path, error);
    throw openError(path, error);
  }
}

/** The one line for a database that cannot be opened. */
function openError(path: string, error: unknown): RadarError {
  if (error instanceof RadarError) return error;
  const failure = storageFailure(error);
  if (failure === "damaged") {
    return error instanceof DatabaseDamagedError ? error : new DatabaseDamagedError(
      path,
      (error as Error)?.message ?? String(error),
      { cause: error },
    );
  }
  return new StorageError(
    `Cannot open the database ${path}: ${describeFailure(failure, error)}`,
    failure,
    path,
    { cause: error },
  );
}

/**
 * Whether `db` accepts writes. SQLite opens a file on a read-only disk read-only without a word
 * when it can use the -wal and -shm already there, and even `BEGIN IMMEDIATE` succeeds; only a
 * page write is refused. The probe rewrites the schema version inside a transaction it rolls back
 * (nothing reaches the disk). Busy (another process is writing) means writable.
 */
function canWrite(db: DatabaseSync): boolean {
  if (db.location() === null) return true; // :memory:
  db.exec("PRAGMA busy_timeout = 0");
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec(`PRAGMA user_version = ${userVersion(db)}`);
    return true;
  } catch (error) {
    return storageFailure(error) !== "read_only";
  } finally {
    if (db.isTransaction) db.exec("ROLLBACK");
    db.exec("PRAGMA busy_timeout = 5000");
  }
}

function isCannotOpen(error: unknown): boolean {
  return ((error as { errcode?: number })?.errcode ?? 0) % 256 === 14 ||
    /unable to open database file/i.test((error as Error)?.message ?? "");
}

function closeQuietly(db: DatabaseSync | undefined): void {
  try {
    if (db?.isOpen) db.close();
  } catch {
    // Closing after a failed open reports nothing useful.
  }
}

/**
 * Opens a database whose file or folder cannot be written (or whose disk is full) for reading
 * only (see `openSnapshot`); writes fail with one line.
 */
function openReadOnly(path: string, original: unknown): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = openSnapshot(path);
    db.exec("PRAGMA foreign_keys = ON");
    const current = userVersion(db);
    if (current !== newestSchemaVersion) {
      throw new StorageError(
        `Cannot open the database ${path}: it is read-only and needs a schema ` +
          `${current < newestSchemaVersion ? "upgrade" : "downgrade"} (version ${current}, ` +
          `this Radar uses ${newestSchemaVersion}); make its folder writable once.`,
        "read_only",
        path,
        { cause: original },
      );
    }
    const failure = storageFailure(original);
    markReadOnly(
      db,
      path,
      failure === "read_only" || isCannotOpen(original)
        ? "the database or its folder is read-only (Radar opened it for reading only)"
        : describeFailure(failure, original),
    );
    return db;
  } catch (error) {
    closeQuietly(db);
    throw openError(path, error);
  }
}

/**
 * The database at `path` opened for reading only, with `query_only` on, committed changes still
 * in a leftover -wal file included, and the file never read into memory. For read-only folders,
 * full disks and `radar db check`. In order:
 * 1. the file itself, read-only (works where SQLite can use or create the -shm/-wal files);
 * 2. else a copy of the file and its -wal in a temporary folder (removed when Radar exits);
 *    (an `immutable` URI would avoid the copy, but Deno resolves `file:` names as paths);
 * 3. last, when the temporary folder is full too: the file read into memory, without its -wal.
 */
export function openSnapshot(path: string): DatabaseSync {
  const attempts: Array<() => DatabaseSync> = [
    () => new DatabaseSync(path, { readOnly: true }),
    () => openTemporaryCopy(path),
    () => openInMemory(path),
  ];
  let lastError: unknown;
  for (const attempt of attempts) {
    let db: DatabaseSync | undefined;
    try {
      db = attempt();
      db.prepare("PRAGMA schema_version").get(); // the file is really read here
      db.exec("PRAGMA query_only = ON");
      return db;
    } catch (error) {
      closeQuietly(db);
      lastError = error;
      if (storageFailure(error) === "damaged") break;
    }
  }
  throw lastError;
}

/** The file and its -wal copied to a temporary folder and opened there (the WAL is replayed). */
function openTemporaryCopy(path: string): DatabaseSync {
  const folder = Deno.makeTempDirSync({ prefix: "radar-readonly-db-" });
  const remove = () => removeQuietly(folder);
  try {
    const copy = join(folder, "radar.db");
    Deno.copyFileSync(path, copy);
    if (isFile(`${path}-wal`)) Deno.copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = new DatabaseSync(copy);
    globalThis.addEventListener("unload", remove);
    return db;
  } catch (error) {
    remove();
    throw error;
  }
}

/** The file read into memory (WAL header bytes reset: SQLite reads it as a rollback file). */
function openInMemory(path: string): DatabaseSync {
  const bytes = Deno.readFileSync(path);
  if (bytes.length >= 20) {
    bytes[18] = 1; // file format write version: legacy (no WAL)
    bytes[19] = 1; // file format read version: legacy (no WAL)
  }
  const db = new DatabaseSync(":memory:");
  try {
    db.deserialize(bytes);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The database's schema version (`PRAGMA user_version`). */
export function userVersion(db: DatabaseSync): number {
  return Number(
    (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
  );
}

/**
 * Opens the database at `path` as the runtime does: the migrations (one module each) are loaded
 * at run time only when the file is not at `newestSchemaVersion` yet (new, or made by an older
 * Radar); a current file is opened without them.
 */
export async function openCurrentDatabase(path: string): Promise<DatabaseSync> {
  const steps = storedSchemaVersion(path) === newestSchemaVersion
    ? []
    : (await migrationsModule()).migrations;
  return openDatabaseFile(path, steps);
}

/**
 * The schema version of the file at `path`, read without writing or creating anything; undefined
 * when it cannot be read that way (no file yet, `:memory:`, a problem `openDatabaseFile` reports).
 */
export function storedSchemaVersion(path: string): number | undefined {
  if (path === ":memory:" || !isFile(path)) return undefined;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    return userVersion(db);
  } catch {
    return undefined;
  } finally {
    closeQuietly(db);
  }
}

/**
 * Applies every migration newer than the database's user_version, each in a transaction; a new
 * database gets them all in one (each step rewrites pages the one before wrote: one transaction
 * logs each page once, so the new file's write-ahead log stays about the file's size, not twice).
 * A database newer than `newest` (default: the newest of `steps`) is refused.
 */
export function migrate(
  db: DatabaseSync,
  steps: readonly Migration[],
  newest = steps.reduce((max, step) => Math.max(max, step.version), 0),
): void {
  const current = userVersion(db);
  if (current > newest) {
    throw new RadarError(
      `Cannot use database: it has schema version ${current}, newer than this Radar (${newest}). ` +
        `Upgrade Radar.`,
    );
  }
  const due = [...steps].sort((a, b) => a.version - b.version)
    .filter((step) => step.version > current);
  const batches = current === 0 ? [due] : due.map((step) => [step]);
  for (const batch of batches.filter((batch) => batch.length)) {
    let step = batch[0];
    db.exec("BEGIN IMMEDIATE");
    try {
      for (step of batch) {
        db.exec(step.sql);
        step.apply?.(db);
        db.exec(`PRAGMA user_version = ${step.version}`);
      }
      db.exec("COMMIT");
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      const failure = storageFailure(error);
      if (failure !== "other" && failure !== "constraint") throw error;
      throw new RadarError(`Cannot migrate database to ${step.name}: ${(error as Error).message}`);
    }
  }
}

/** The migrations, loaded only when the file's schema is not the newest. */
function migrationsModule(): Promise<typeof import("./migrations/index.ts")> {
  return import(new URL("./migrations/index.ts", import.meta.url).href);
}
