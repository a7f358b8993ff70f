/** URL monitors in SQLite: what to fetch, when, and the last version seen. */
import { maxEveryMinutes, minEveryMinutes } from "../../core/bounds.ts";
import type { DatabaseSync } from "node:sqlite";
import type { CheckSuccess, MonitorStore, NewMonitor } from "../../core/work_ports.ts";
import type { MonitorRecord } from "../../core/schedule_ports.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

/** The columns of a monitor, in its record's key order. */
const monitorColumns = columnsOf<MonitorRecord>()(
  `id name url selector every_minutes urgent enabled created_at next_check_at last_checked_at
   last_changed_at etag last_modified content failures last_error last_result`,
);

function toMonitor(row: Row): MonitorRecord {
  return {
    ...camelRecord(row, monitorColumns),
    // Rows stored before intervals were bounded are read within the bounds (a huge interval
    // made every check throw "Invalid time value").
    everyMinutes: Math.min(Math.max(Number(row.every_minutes), minEveryMinutes), maxEveryMinutes),
    urgent: row.urgent === 1,
    enabled: row.enabled === 1,
  };
}

/** Monitors in SQLite. */
export class SqliteMonitorStore implements MonitorStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Adds a monitor; returns its id. */
  add(monitor: NewMonitor, at: Date): number {
    return insert(
      this.db,
      "the monitor",
      `INSERT INTO monitors (name, url, selector, every_minutes, urgent, created_at, next_check_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      monitor.name.slice(0, 100),
      monitor.url,
      monitor.selector,
      monitor.everyMinutes,
      monitor.urgent ? 1 : 0,
      at.toISOString(),
      monitor.nextCheckAt.toISOString(),
    );
  }

  /** One monitor. */
  get(id: number): MonitorRecord | undefined {
    return selectOne(this.db, toMonitor, "SELECT * FROM monitors WHERE id = ?", id);
  }

  /** Every monitor, by id. */
  list(): MonitorRecord[] {
    return selectAll(this.db, toMonitor, "SELECT * FROM monitors ORDER BY id");
  }

  /** Enabled monitors whose next check is at or before `now`, most overdue first. */
  due(now: Date): MonitorRecord[] {
    const sql = `SELECT * FROM monitors WHERE enabled = 1 AND next_check_at <= ?
      ORDER BY next_check_at, id`;
    return selectAll(this.db, toMonitor, sql, now.toISOString());
  }

  /** Deletes a monitor. */
  remove(id: number): boolean {
    return write(this.db, "the monitor's removal", "DELETE FROM monitors WHERE id = ?", id)
      .changes > 0;
  }

  /** Pauses or resumes a monitor; resuming clears its failures and checks at `nextCheckAt`. */
  setEnabled(id: number, enabled: boolean, nextCheckAt: Date): boolean {
    return write(
      this.db,
      "the monitor",
      `UPDATE monitors SET enabled = ?, next_check_at = ?,
          failures = CASE WHEN ? = 1 THEN 0 ELSE failures END WHERE id = ?`,
      enabled ? 1 : 0,
      nextCheckAt.toISOString(),
      enabled ? 1 : 0,
      id,
    ).changes > 0;
  }

  /** Records a successful check (failures reset). */
  recordSuccess(id: number, check: CheckSuccess): void {
    write(
      this.db,
      "the monitor check",
      `UPDATE monitors SET last_checked_at = ?, next_check_at = ?, last_result = ?,
        content = COALESCE(?, content),
        last_changed_at = CASE WHEN ? = 1 THEN ? ELSE last_changed_at END,
        etag = ?, last_modified = ?, failures = 0, last_error = NULL WHERE id = ?`,
      check.at.toISOString(),
      check.nextCheckAt.toISOString(),
      check.result.slice(0, 300),
      check.content ?? null,
      check.changed ? 1 : 0,
      check.at.toISOString(),
      check.etag ?? null,
      check.lastModified ?? null,
      id,
    );
  }

  /** Records a failed check with its failure count and backed-off next check. */
  recordFailure(...[id, failure]: Parameters<MonitorStore["recordFailure"]>): void {
    write(
      this.db,
      "the monitor check",
      `UPDATE monitors SET last_checked_at = ?, next_check_at = ?, failures = ?, last_error = ?,
        last_result = ? WHERE id = ?`,
      failure.at.toISOString(),
      failure.nextCheckAt.toISOString(),
      failure.failures,
      failure.error.slice(0, 300),
      `failed: ${failure.error}`.slice(0, 300),
      id,
    );
  }
}
