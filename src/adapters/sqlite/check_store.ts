/** SQLite rows of the custom checks: each check's last result (what "changed" compares with). */
import type { DatabaseSync } from "node:sqlite";
import type { CheckResultRow, CheckResults } from "../../sources/source_stores.ts";
import { write } from "./write.ts";
import { camelRecord, columnsOf, type Row, selectOne } from "./rows.ts";

/** The columns of a check's result, in its record's key order. */
const resultColumns = columnsOf<CheckResultRow>()(
  "name output_hash exit_code json_value failing last_run_at duration_ms output",
);

/** Characters of output kept in the row. */
const keptOutputChars = 2000;

/** The checks' store. */
export class SqliteCheckStore implements CheckResults {
  constructor(private readonly db: DatabaseSync) {}

  /** The last result of `name` (undefined before its first run). */
  last(name: string): CheckResultRow | undefined {
    const toResult = (row: Row) => ({
      ...camelRecord(row, resultColumns),
      failing: Number(row.failing) === 1,
    });
    return selectOne(this.db, toResult, "SELECT * FROM check_results WHERE name = ?", name);
  }

  /** Stores the newest result of a check. */
  save(result: CheckResultRow): void {
    write(
      this.db,
      "the check's result",
      `INSERT INTO check_results (name, output_hash, exit_code, json_value, failing, last_run_at,
         duration_ms, output)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT (name) DO UPDATE SET output_hash = ?2, exit_code = ?3, json_value = ?4,
         failing = ?5, last_run_at = ?6, duration_ms = ?7, output = ?8`,
      result.name,
      result.outputHash ?? null,
      result.exitCode ?? null,
      result.jsonValue ?? null,
      result.failing ? 1 : 0,
      result.lastRunAt,
      result.durationMs,
      result.output.slice(0, keptOutputChars),
    );
  }
}
