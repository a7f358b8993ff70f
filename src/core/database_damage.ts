/**
 * A damaged database, named: SQLite reported corruption (SQLITE_CORRUPT: "database disk image is
 * malformed", SQLITE_NOTADB: "file is not a database") or the file failed an integrity check.
 * Every command says it in one line naming the file and the way out; a run (ask, chat, heartbeat)
 * stops at once instead of carrying on around it.
 */
import { RadarError } from "./errors.ts";

/** What to do about a damaged database (the commands exist: `db check`, `restore`, `db recover`). */
export const damageAdvice =
  "run `radar db check` to see the damage, then `radar restore` your latest `radar backup`, or " +
  "`radar db recover` to copy everything SQLite can still read into a new database (the damaged " +
  "file is kept aside)";

/** The one line for a damaged database at `path`; `detail` is SQLite's words or the check's. */
export function damagedDatabaseLine(path: string, detail?: string): string {
  const why = detail ? ` (${detail.split("\n")[0].slice(0, 200)})` : "";
  return `The database ${path} is damaged${why}: ${damageAdvice}.`;
}

/** The database file is damaged: one line naming it and the next step (exit 1). */
export class DatabaseDamagedError extends RadarError {
  constructor(readonly path: string, readonly detail: string, options?: ErrorOptions) {
    super(damagedDatabaseLine(path, detail), 1, options);
  }
}
