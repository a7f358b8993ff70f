/** Opens Radar's single SQLite file (WAL, foreign keys, busy timeout) and migrates it. */
import { DatabaseSync } from "node:sqlite";
import { RadarError } from "../../core/errors.ts";
import { migrations } from "./migrations/index.ts";

/** One schema step; `version` is its position in `PRAGMA user_version`. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Opens (and creates) the database at `path`; `:memory:` works for tests. */
export function openDatabase(path: string): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw new RadarError(`Cannot open database ${path}: ${(error as Error).message}`, 1, {
      cause: error,
    });
  }
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  migrate(db, migrations);
  return db;
}

/** Applies every migration newer than the database's user_version, each in a transaction. */
export function migrate(db: DatabaseSync, steps: readonly Migration[]): void {
  const current = Number(
    (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
  );
  const newest = steps.reduce((max, step) => Math.max(max, step.version), 0);
  if (current > newest) {
    throw new RadarError(
      `Cannot use database: it has schema version ${current}, newer than this Radar (${newest}). ` +
        `Upgrade Radar.`,
    );
  }
  for (const step of [...steps].sort((a, b) => a.version - b.version)) {
    if (step.version <= current) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(step.sql);
      db.exec(`PRAGMA user_version = ${step.version}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw new RadarError(`Cannot migrate database to ${step.name}: ${(error as Error).message}`);
    }
  }
}

/** Runs `work` in an IMMEDIATE transaction, rolling back when it throws. */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
