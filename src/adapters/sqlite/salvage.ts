/**
 * `radar db recover`'s salvage: every row SQLite can still read from a damaged database, copied
 * into a new one. node:sqlite has no `.recover` (the sqlite3 shell's page reader), so this reads
 * through SQL, table by table: a rowid table in rowid order until a read fails, then backwards
 * from the far end, then by splitting the unread gap in halves and probing each, so the healthy
 * pages between damaged ones are found and only the rows on unreadable pages (or behind an
 * unreadable interior page) are lost. Indexes, full-text indexes and counters are never copied:
 * the new file's own triggers rebuild them from the rows. Rows left pointing at a lost parent are
 * mended: a nullable link is cleared, messages of a lost conversation get a stand-in
 * conversation, anything else is dropped (all counted).
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { RadarError } from "../../core/errors.ts";
import { migrate, newestSchemaVersion, openSnapshot, userVersion } from "./database_file.ts";
import { migrations } from "./migrations/index.ts";
import { storageFailure } from "./storage_failure.ts";

/** What was copied of one table. */
export interface SalvagedTable {
  name: string;
  /** Rows copied into the new database. */
  copied: number;
  /** Stretches of rows no read could reach (damaged pages), and single rows that were unreadable. */
  unreadableStretches: number;
  unreadableRows: number;
  /** False when some part of the table could not be read. */
  complete: boolean;
}

/** What a salvage did. */
export interface SalvageReport {
  source: string;
  target: string;
  schemaVersion: number;
  tables: SalvagedTable[];
  /** Links to lost parents: cleared, given a stand-in conversation, or rows dropped. */
  mended: { cleared: number; standIns: number; dropped: number };
  /** The new file's integrity check ("ok"). */
  integrity: string;
}

type Row = Record<string, SQLInputValue>;

/** Rows read per step. */
const pageRows = 500;
/** Probes per table before the search coarsens (a table whose every page is damaged). */
const probeBudget = 50_000;

/** Copies what can be read of `source` into a new database at `target` (which must not exist). */
export function salvageDatabase(source: string, target: string): SalvageReport {
  let from: DatabaseSync;
  try {
    from = openSnapshot(source);
  } catch (error) {
    throw new RadarError(
      `Cannot recover ${source}: SQLite cannot read even its first page (${
        (error as Error).message
      }); restore a backup instead (\`radar restore\`).`,
      1,
      { cause: error },
    );
  }
  try {
    const version = schemaVersion(from);
    const to = new DatabaseSync(target);
    try {
      to.exec("PRAGMA journal_mode = WAL");
      migrate(to, migrations.filter((step) => step.version <= version));
      to.exec("PRAGMA foreign_keys = OFF");
      const tables = copiedTables(to).map((table) => salvageTable(from, to, table));
      const mended = mendLinks(to);
      to.exec("PRAGMA foreign_keys = ON");
      const integrity = String(
        (to.prepare("PRAGMA integrity_check(1)").get() as { integrity_check: string })
          .integrity_check,
      );
      return { source, target, schemaVersion: version, tables, mended, integrity };
    } finally {
      to.close();
    }
  } finally {
    from.close();
  }
}

/** The damaged file's schema version (page 1's header), this Radar's newest when unreadable. */
function schemaVersion(db: DatabaseSync): number {
  try {
    const version = userVersion(db);
    if (version > newestSchemaVersion) {
      throw new RadarError(
        `Cannot recover: the database has schema version ${version}, newer than this Radar ` +
          `(${newestSchemaVersion}). Upgrade Radar first.`,
      );
    }
    return version || newestSchemaVersion;
  } catch (error) {
    if (error instanceof RadarError) throw error;
    return newestSchemaVersion;
  }
}

interface TablePlan {
  name: string;
  /** Columns the new table has (the damaged one's may be read by the same names). */
  columns: string[];
  /** Read and written by rowid (false: a WITHOUT ROWID table). */
  hasRowid: boolean;
  /** The INTEGER PRIMARY KEY column that is the rowid, when there is one. */
  rowidAlias?: string;
}

/**
 * The new file's ordinary tables, without full-text tables and their shadow tables, and without
 * tables that triggers fill (counters): the rows copied rebuild those.
 */
function copiedTables(db: DatabaseSync): TablePlan[] {
  const schema = db.prepare(
    "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'",
  ).all() as Array<{ type: string; name: string; sql: string | null }>;
  const virtual = schema.filter((row) =>
    row.type === "table" && /^CREATE VIRTUAL/i.test(row.sql ?? "")
  )
    .map((row) => row.name);
  const filledByTriggers = new Set<string>();
  for (const row of schema.filter((entry) => entry.type === "trigger")) {
    const body = (row.sql ?? "").replace(/^[\s\S]*?\bBEGIN\b/i, "");
    for (const match of body.matchAll(/\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE)\s+(\w+)/gi)) {
      filledByTriggers.add(match[1]);
    }
  }
  return schema
    .filter((row) =>
      row.type === "table" && !virtual.includes(row.name) &&
      !virtual.some((name) => row.name.startsWith(`${name}_`)) && !filledByTriggers.has(row.name)
    )
    .map((row) => {
      const info = db.prepare(`PRAGMA table_info("${row.name}")`).all() as Array<
        { name: string; type: string; pk: number }
      >;
      const keys = info.filter((column) => column.pk > 0);
      const hasRowid = !/WITHOUT\s+ROWID/i.test(row.sql ?? "");
      const alias = hasRowid && keys.length === 1 && /^INTEGER$/i.test(keys[0].type)
        ? keys[0].name
        : undefined;
      return {
        name: row.name,
        columns: info.map((column) => column.name),
        hasRowid,
        rowidAlias: alias,
      };
    });
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function isDamage(error: unknown): boolean {
  const failure = storageFailure(error);
  return failure === "damaged" || failure === "io";
}

/** Copies one table's readable rows. */
function salvageTable(from: DatabaseSync, to: DatabaseSync, plan: TablePlan): SalvagedTable {
  const report: SalvagedTable = {
    name: plan.name,
    copied: 0,
    unreadableStretches: 0,
    unreadableRows: 0,
    complete: true,
  };
  let columns: string[];
  try {
    const present = new Set(
      (from.prepare(`PRAGMA table_info(${quote(plan.name)})`).all() as Array<{ name: string }>)
        .map((column) => column.name),
    );
    columns = plan.columns.filter((column) => present.has(column));
    if (!columns.length) return report; // not in the damaged file's schema (or unreadable)
  } catch {
    return { ...report, complete: false };
  }
  const insertColumns = plan.hasRowid && !plan.rowidAlias ? ["rowid", ...columns] : columns;
  const insert = to.prepare(
    `INSERT OR IGNORE INTO ${quote(plan.name)} (${insertColumns.map(quote).join(", ")})
     VALUES (${insertColumns.map(() => "?").join(", ")})`,
  );
  const write = (rows: Row[]) => {
    if (!rows.length) return;
    to.exec("BEGIN");
    try {
      for (const row of rows) {
        report.copied += Number(
          insert.run(...insertColumns.map((column) => row[column] ?? null)).changes,
        );
      }
      to.exec("COMMIT");
    } catch (error) {
      to.exec("ROLLBACK");
      throw error;
    }
  };
  if (!plan.hasRowid) {
    // No rowid to seek by: read in key order a page at a time, then row by row up to the first
    // damaged page; what came before it is kept (the rest of such a table is lost).
    const select = `SELECT ${columns.map(quote).join(", ")} FROM ${quote(plan.name)}`;
    let offset = 0;
    for (let size = pageRows; size > 0;) {
      let rows: Row[];
      try {
        rows = from.prepare(`${select} LIMIT ? OFFSET ?`).all(size, offset) as Row[];
      } catch (error) {
        if (!isDamage(error)) throw error;
        if (size === 1) {
          report.complete = false;
          report.unreadableStretches++;
          break;
        }
        size = 1;
        continue;
      }
      write(rows);
      offset += rows.length;
      if (rows.length < size) break;
    }
    return report;
  }
  const pageSize = Number(
    (from.prepare("PRAGMA page_size").get() as { page_size: number }).page_size,
  );
  new RowidSalvage(from, plan.name, columns, write, report, pageSize || 4096).run();
  return report;
}

/** The rowid search of one table (see the module comment). */
class RowidSalvage {
  #probes = 0;
  #granularity = 16;
  #rowsRead = 0;
  #bytesRead = 0;
  #lowest: number | undefined;
  #highest: number | undefined;
  readonly #select: string;

  constructor(
    private readonly db: DatabaseSync,
    private readonly table: string,
    columns: string[],
    private readonly write: (rows: Row[]) => void,
    private readonly report: SalvagedTable,
    private readonly pageSize: number,
  ) {
    this.#select = `SELECT rowid AS rowid, ${columns.map(quote).join(", ")} FROM ${quote(table)}`;
  }

  run(): void {
    const lost: Array<[number, number]> = [];
    const gaps: Array<[number, number]> = [[-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]];
    while (gaps.length) {
      const [after, before] = gaps.pop()!;
      const low = this.#scan(after, before, "forward");
      if (low === undefined) continue; // read to the end: nothing damaged in between
      const high = this.#scan(before, low, "backward");
      if (high === undefined) continue;
      if (high - low <= 1) continue;
      this.report.complete = false;
      if (high - low <= this.#granularity) {
        lost.push([low, high]);
        continue;
      }
      const middle = low + Math.floor((high - low) / 2);
      gaps.push([middle, high], [low, middle + 1]);
    }
    // Pieces of one damaged stretch touch (the halves share their middle): counted once.
    lost.sort((a, b) => a[0] - b[0]);
    let end = Number.NEGATIVE_INFINITY;
    for (const [low, high] of lost) {
      if (low > end) this.report.unreadableStretches++;
      end = Math.max(end, high);
    }
  }

  /**
   * Reads rows from `from` towards `to` (exclusive) until the end or a damaged page; a row whose
   * own content cannot be read (its leaf can) is skipped. Returns where the damage begins (the
   * last rowid read, or `from`), or undefined when the whole stretch was read.
   */
  #scan(from: number, to: number, direction: "forward" | "backward"): number | undefined {
    const forward = direction === "forward";
    const range = forward ? "rowid > ? AND rowid < ?" : "rowid < ? AND rowid > ?";
    const order = forward ? "ASC" : "DESC";
    const rowsSql = `${this.#select} WHERE ${range} ORDER BY rowid ${order} LIMIT ${pageRows}`;
    const probeSql = `SELECT rowid FROM ${
      quote(this.table)
    } WHERE ${range} ORDER BY rowid ${order} LIMIT 1`;
    const oneSql = `${this.#select} WHERE ${range} ORDER BY rowid ${order} LIMIT 1`;
    let position = from;
    for (;;) {
      // A page of rows at once; when that fails, one at a time up to the damage (node:sqlite's
      // iterate() ends quietly at a damaged page, so it cannot be trusted to say where).
      let rows: Row[] = [];
      let failed = false;
      try {
        rows = this.db.prepare(rowsSql).all(position, to) as Row[];
      } catch (error) {
        if (!isDamage(error)) throw error;
        failed = true;
        let at = position;
        for (let step = 0; step < pageRows; step++) {
          let row: Row | undefined;
          try {
            row = this.db.prepare(oneSql).get(at, to) as Row | undefined;
          } catch (inner) {
            if (!isDamage(inner)) throw inner;
            break;
          }
          if (!row) break;
          rows.push(row);
          at = Number(row.rowid);
        }
      }
      this.#note(rows);
      this.write(rows);
      if (rows.length) position = Number(rows[rows.length - 1].rowid);
      if (!failed && rows.length < pageRows) return undefined;
      if (!failed) continue;
      // The next row's page is readable when its rowid is: then only that row is lost.
      this.#probes++;
      let next: number | undefined;
      try {
        const row = this.db.prepare(probeSql).get(position, to) as { rowid: number } | undefined;
        if (!row) return undefined;
        next = Number(row.rowid);
      } catch (error) {
        if (!isDamage(error)) throw error;
      }
      if (next === undefined) return position;
      const row = this.#readOne(next);
      if (row) {
        this.#note([row]);
        this.write([row]);
      } else this.report.unreadableRows++;
      position = next;
    }
  }

  /** One row by rowid, or undefined when its content cannot be read. */
  #readOne(rowid: number): Row | undefined {
    try {
      return this.db.prepare(`${this.#select} WHERE rowid = ?`).get(rowid) as Row | undefined;
    } catch (error) {
      if (!isDamage(error)) throw error;
      return undefined;
    }
  }

  /** Learns how many rowids a page holds, so the search never splits finer than half a page. */
  #note(rows: Row[]): void {
    for (const row of rows) {
      const rowid = Number(row.rowid);
      this.#lowest = Math.min(this.#lowest ?? rowid, rowid);
      this.#highest = Math.max(this.#highest ?? rowid, rowid);
      this.#bytesRead += JSON.stringify(row).length;
    }
    this.#rowsRead += rows.length;
    if (this.#rowsRead >= 20) {
      const rowsPerPage = Math.max(
        1,
        Math.floor(this.pageSize * 0.8 / (this.#bytesRead / this.#rowsRead)),
      );
      const rowidsPerRow = Math.max(1, (this.#highest! - this.#lowest! + 1) / this.#rowsRead);
      this.#granularity = Math.max(1, Math.floor(rowsPerPage * rowidsPerRow / 2));
    }
    if (this.#probes > probeBudget) {
      this.#granularity *= 2;
      this.#probes = 0;
    }
  }
}

/**
 * Mends rows whose parent was lost: a nullable link is cleared, messages (or anything) of a lost
 * conversation get a stand-in conversation, any other orphan is dropped.
 */
function mendLinks(db: DatabaseSync): SalvageReport["mended"] {
  const mended = { cleared: 0, standIns: 0, dropped: 0 };
  const tables = (db.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  ).all() as Array<{ name: string }>).map((row) => row.name);
  for (const table of tables) {
    let links: Array<{ table: string; from: string; to: string | null }>;
    try {
      links = db.prepare(`PRAGMA foreign_key_list(${quote(table)})`).all() as typeof links;
    } catch {
      continue; // a virtual table
    }
    const columns = db.prepare(`PRAGMA table_info(${quote(table)})`).all() as Array<
      { name: string; notnull: number }
    >;
    for (const link of links) {
      const parentKey = link.to ?? "rowid";
      const orphans = `${quote(link.from)} IS NOT NULL AND ${quote(link.from)} NOT IN
        (SELECT ${quote(parentKey)} FROM ${quote(link.table)})`;
      const nullable = columns.find((column) => column.name === link.from)?.notnull === 0;
      if (nullable) {
        mended.cleared += Number(
          db.prepare(`UPDATE ${quote(table)} SET ${quote(link.from)} = NULL WHERE ${orphans}`).run()
            .changes,
        );
      } else if (link.table === "conversations") {
        const ids = db.prepare(
          `SELECT DISTINCT ${quote(link.from)} AS id FROM ${quote(table)} WHERE ${orphans}`,
        )
          .all() as Array<{ id: number }>;
        const now = new Date().toISOString();
        for (const { id } of ids) {
          db.prepare(
            `INSERT INTO conversations (id, kind, title, created_at, updated_at)
             VALUES (?, 'chat', ?, ?, ?)`,
          ).run(id, `(recovered: conversation ${id}'s header was unreadable)`, now, now);
          mended.standIns++;
        }
      } else {
        mended.dropped += Number(
          db.prepare(`DELETE FROM ${quote(table)} WHERE ${orphans}`).run().changes,
        );
      }
    }
  }
  return mended;
}
