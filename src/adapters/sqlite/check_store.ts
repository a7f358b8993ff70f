/** SQLite rows of the custom checks: each check's last result (what "changed" compares with). */
import { statement } from "./statements.ts";
import type { DatabaseSync } from "node:sqlite";
import type { CheckResultRow, CheckResults } from "../../core/source_stores.ts";
import { write } from "./write.ts";

interface Row {
  name: string;
  output_hash: string | null;
  exit_code: number | null;
  json_value: string | null;
  failing: number;
  last_run_at: string;
  duration_ms: number;
  output: string;
}

/** Characters of output kept in the row. */
const keptOutputChars = 2000;

/** The checks' store. */
export class SqliteCheckStore implements CheckResults {
  constructor(private readonly db: DatabaseSync) {}

  /** The last result of `name` (undefined before its first run). */
  last(name: string): CheckResultRow | undefined {
    const row = statement(this.db, "SELECT * FROM check_results WHERE name = ?").get(name) as
      | Row
      | undefined;
    if (!row) return undefined;
    return {
      name: row.name,
      outputHash: row.output_hash ?? undefined,
      exitCode: row.exit_code ?? undefined,
      jsonValue: row.json_value ?? undefined,
      failing: Number(row.failing) === 1,
      lastRunAt: row.last_run_at,
      durationMs: Number(row.duration_ms),
      output: row.output,
    };
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
