/**
 * Database health and backups: `radar db check` (integrity and foreign keys), `radar status`'s
 * quick check, and `radar db backup` (a consistent, owner-only copy made with VACUUM INTO).
 */
import { backup, DatabaseSync } from "node:sqlite";
import { damageAdvice, RadarError } from "../../core/errors.ts";
import { openSnapshot } from "./database_file.ts";
import { describeFailure, storageFailure } from "./storage_failure.ts";
import { formatStoredTime } from "../../core/zoned_time.ts";

/** What a check found. */
export interface DatabaseCheck {
  path: string;
  ok: boolean;
  /** "ok", or up to 20 problems SQLite reported (or why the file could not be read). */
  problems: string[];
  /** Rows that point at a missing parent (PRAGMA foreign_key_check), at most 100 counted. */
  foreignKeyProblems: number;
  sizeBytes: number;
  durationMs: number;
}

/**
 * Runs PRAGMA integrity_check and foreign_key_check on the file at `path` without migrating or
 * writing it. A file that is not a database (or cannot be read) is reported as damaged.
 */
export function checkDatabaseFile(
  path: string,
  clock: () => number = () => performance.now(),
): DatabaseCheck {
  const started = clock();
  let sizeBytes = 0;
  try {
    sizeBytes = Deno.statSync(path).size;
  } catch (error) {
    throw new RadarError(`Cannot check the database ${path}: ${(error as Error).message}`);
  }
  const found = (ok: boolean, problems: string[], foreignKeyProblems: number): DatabaseCheck => ({
    path,
    ok,
    problems,
    foreignKeyProblems,
    sizeBytes,
    durationMs: Math.round(clock() - started),
  });
  let db: DatabaseSync | undefined;
  try {
    db = openForCheck(path);
    const problems = (db.prepare("PRAGMA integrity_check(20)").all() as Array<
      { integrity_check: string }
    >).map((row) => String(row.integrity_check));
    const foreignKeyProblems = Number(
      (db.prepare("SELECT COUNT(*) AS n FROM (SELECT 1 FROM pragma_foreign_key_check LIMIT 100)")
        .get() as { n: number }).n,
    );
    const ok = problems.length === 1 && problems[0] === "ok" && foreignKeyProblems === 0;
    return found(ok, problems, foreignKeyProblems);
  } catch (error) {
    const failure = storageFailure(error);
    if (failure !== "damaged" && failure !== "io") {
      throw new RadarError(`Cannot check the database ${path}: ${(error as Error).message}`, 1, {
        cause: error,
      });
    }
    return found(false, [(error as Error).message], 0);
  } finally {
    if (db?.isOpen) db.close();
  }
}

/** Opens the file read-only; in a read-only folder (no -shm possible), a snapshot of it. */
function openForCheck(path: string): DatabaseSync {
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    db.prepare("PRAGMA schema_version").get();
    return db;
  } catch (error) {
    if (!/unable to open database file|disk I\/O error/i.test((error as Error).message)) {
      throw error;
    }
    return openSnapshot(path);
  }
}

/** PRAGMA quick_check on an open database: "ok" or the first problem, with its duration. */
export function quickCheck(
  db: DatabaseSync,
  clock: () => number = () => performance.now(),
): { ok: boolean; result: string; durationMs: number } {
  const started = clock();
  try {
    const rows = db.prepare("PRAGMA quick_check(2)").all() as Array<{ quick_check: string }>;
    // The first problem, not SQLite's "*** in database main ***" heading above it.
    const lines = rows.map((row) => String(row.quick_check));
    const result = lines.find((line) => !line.startsWith("*** in database")) ?? lines[0] ??
      "no answer";
    return { ok: result === "ok", result, durationMs: Math.round(clock() - started) };
  } catch (error) {
    return {
      ok: false,
      result: (error as Error).message,
      durationMs: Math.round(clock() - started),
    };
  }
}

/**
 * Writes a consistent copy of the open database to `target` (which must not exist) with SQLite's
 * online backup API (VACUUM INTO needs ATTACH, which Deno's node:sqlite forbids without -A); the
 * file is created owner-only (0600) before SQLite fills it. `radar db backup`, `radar backup` and
 * the scheduled backup use it.
 */
export async function backupDatabase(
  db: DatabaseSync,
  target: string,
): Promise<{ sizeBytes: number }> {
  let created: Deno.FsFile;
  try {
    created = Deno.openSync(target, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    const reason = error instanceof Deno.errors.AlreadyExists
      ? "the file already exists (choose a new name)"
      : (error as Error).message;
    throw new RadarError(`Cannot back up the database to ${target}: ${reason}`);
  }
  created.close();
  try {
    if (Deno.build.os !== "windows") Deno.chmodSync(target, 0o600);
    // One step (rate -1) copies one read snapshot: writes by another connection meanwhile (the
    // daemon's) neither tear the copy nor restart it, as they would restart a paced backup.
    await backup(db, target, { rate: -1 });
  } catch (error) {
    try {
      Deno.removeSync(target);
    } catch { /* nothing was written */ }
    throw new RadarError(
      `Cannot back up the database to ${target}: ${describeFailure(storageFailure(error), error)}`,
      1,
      { cause: error },
    );
  }
  return { sizeBytes: Deno.statSync(target).size };
}

/** The file `radar db check` records its last result in, next to radar.db. */
function lastCheckPath(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}/db-check.json`;
}

/** What `radar status` shows of the last full check. */
interface RecordedCheck {
  at: string;
  ok: boolean;
  durationMs: number;
  problem?: string;
}

/** Records a check's outcome for `radar status` (best effort: a read-only folder keeps none). */
export function recordCheck(dataDir: string, check: DatabaseCheck, at: Date): void {
  const recorded: RecordedCheck = {
    at: at.toISOString(),
    ok: check.ok,
    durationMs: check.durationMs,
  };
  const problem = check.problems.find((line) => line !== "ok");
  if (problem) recorded.problem = problem.slice(0, 200);
  try {
    Deno.writeTextFileSync(lastCheckPath(dataDir), `${JSON.stringify(recorded)}\n`, {
      mode: 0o600,
    });
  } catch {
    // Only a convenience for `radar status`.
  }
}

/** The last recorded check, or undefined. */
function lastCheck(dataDir: string): RecordedCheck | undefined {
  try {
    const parsed = JSON.parse(Deno.readTextFileSync(lastCheckPath(dataDir)));
    if (typeof parsed?.at === "string" && typeof parsed?.ok === "boolean") return parsed;
  } catch {
    // None yet, or unreadable.
  }
  return undefined;
}

/** Databases up to this size get a live quick_check in `radar status` (~0.1 s); larger ones
 * show the last `radar db check` (quick_check took 1.8 s on 147 MiB / 100k conversations). */
const liveCheckMaxBytes = 8 * 1024 * 1024;

/** The `radar status` integrity line (the last check's time in `timeZone`, offset named). */
export function integrityLine(
  db: DatabaseSync,
  dataDir: string,
  sizeBytes: number,
  timeZone?: string,
): string {
  if (sizeBytes <= liveCheckMaxBytes) {
    const quick = quickCheck(db);
    return quick.ok
      ? `integrity: ok (quick check, ${quick.durationMs} ms)`
      : `integrity: DAMAGED (${quick.result}): ${damageAdvice}`;
  }
  const last = lastCheck(dataDir);
  if (!last) return "integrity: not checked yet (large database): run `radar db check`";
  return last.ok
    ? `integrity: ok at the last \`radar db check\` (${
      formatStoredTime(last.at, timeZone, { zone: true })
    })`
    : `integrity: DAMAGED at the last \`radar db check\` (${
      last.problem ?? "see radar db check"
    }): ` +
      damageAdvice;
}
