/**
 * Whether a database file holds exactly the schema objects Radar's migrations create for its
 * schema version: no more (a trigger, a view, an extra table or index an archive slipped in runs
 * inside every later Radar: a trigger once made model-scheduled tasks look like the user's own),
 * no fewer, none altered. `radar restore` refuses anything else.
 */
import { DatabaseSync } from "node:sqlite";
import { migrate } from "./database_file.ts";
import { migrations } from "./migrations/index.ts";

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Every schema object of `db` by "type name", with what defines it. */
function schemaOf(db: DatabaseSync): Map<string, SchemaObject> {
  const rows = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema")
    .all() as unknown as SchemaObject[];
  return new Map(rows.map((row) => [`${row.type} ${JSON.stringify(row.name)}`, row]));
}

/** What Radar's migrations create up to `version`, in an empty database in memory. */
function expectedSchema(version: number): Map<string, SchemaObject> {
  const db = new DatabaseSync(":memory:");
  try {
    migrate(db, migrations.filter((step) => step.version <= version));
    return schemaOf(db);
  } finally {
    db.close();
  }
}

/**
 * Undefined when the file at `path` has exactly the schema of `version`; else what differs first,
 * in a few words ("a trigger \"t\" on tasks that Radar does not create").
 */
export function schemaProblem(path: string, version: number): string | undefined {
  const expected = expectedSchema(version);
  const db = new DatabaseSync(path, { readOnly: true });
  let found: Map<string, SchemaObject>;
  try {
    found = schemaOf(db);
  } finally {
    db.close();
  }
  for (const [key, object] of found) {
    const own = expected.get(key);
    const on = object.type === "table" || object.type === "view" ? "" : ` on ${object.tbl_name}`;
    const what = `${key}${on}`.slice(0, 120);
    if (!own) return `a ${what} that Radar does not create`;
    if (own.sql !== object.sql || own.tbl_name !== object.tbl_name) {
      return `a ${what} that differs from the one Radar creates`;
    }
  }
  for (const key of expected.keys()) {
    if (!found.has(key)) return `no ${key.slice(0, 120)}, which Radar creates`;
  }
  return undefined;
}
