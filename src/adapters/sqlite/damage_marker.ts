/**
 * A damaged database, remembered next to it (`radar.db.damaged`, JSON) until that file is
 * replaced: found by `radar db check`, the daemon's integrity check, or a statement that met
 * corruption. While it holds, every command refuses the file with one line (the damage may sit
 * on pages the command never reads), `radar serve` opens it read-only and says so, and the daemon
 * notifies once. `radar db check` finding the file intact, `radar db recover` and a restore (a
 * new file: another inode) end it.
 */
import { DatabaseDamagedError } from "../../core/errors.ts";

/** What the marker holds. */
export interface DamageRecord {
  /** When the damage was found (ISO). */
  at: string;
  /** SQLite's words or the check's first problem. */
  problem: string;
  /** The damaged file's device:inode (another file at the path ends the marker). */
  file: string;
  /** When the daemon's one notification went out. */
  notifiedAt?: string;
}

/** Where the marker of the database at `path` lives. */
function damageMarkerPath(path: string): string {
  return `${path}.damaged`;
}

function fileIdentity(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isFile ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers that the database at `path` is damaged (best effort: a read-only folder keeps none). */
export function recordDamage(path: string, problem: string, at: Date): DamageRecord | undefined {
  const file = fileIdentity(path);
  if (!file) return undefined;
  const before = knownDamage(path);
  const record: DamageRecord = before ??
    { at: at.toISOString(), problem: problem.slice(0, 300), file };
  try {
    Deno.writeTextFileSync(damageMarkerPath(path), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    // The refusal is a convenience; the damage itself is reported where it was met.
  }
  return record;
}

/** The marker of the database at `path`, while it still names that file (a stale one is removed). */
export function knownDamage(path: string): DamageRecord | undefined {
  let record: DamageRecord;
  try {
    record = JSON.parse(Deno.readTextFileSync(damageMarkerPath(path)));
  } catch {
    return undefined;
  }
  if (typeof record?.at !== "string" || typeof record?.problem !== "string") return undefined;
  if (record.file !== fileIdentity(path)) {
    clearDamage(path);
    return undefined;
  }
  return record;
}

/** Ends the marker (the file was checked intact, or replaced). */
export function clearDamage(path: string): void {
  try {
    Deno.removeSync(damageMarkerPath(path));
  } catch {
    // None.
  }
}

/** Records that the one notification about this damage went out. */
export function markDamageNotified(path: string, at: Date): void {
  const record = knownDamage(path);
  if (!record) return;
  record.notifiedAt = at.toISOString();
  try {
    Deno.writeTextFileSync(damageMarkerPath(path), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    // Then it may be sent again after a restart; never more than once per daemon run.
  }
}

/** Refuses a database known to be damaged, with the one line (for every command but serve). */
export function refuseKnownDamage(path: string): void {
  const known = knownDamage(path);
  if (known) {
    throw new DatabaseDamagedError(
      path,
      `found ${known.at.slice(0, 16).replace("T", " ")} UTC: ${known.problem}`,
    );
  }
}
