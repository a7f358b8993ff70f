/**
 * Opens Radar's database with every migration at hand: the commands that open a file of their
 * own (`radar db`, `radar backup`, `radar eval`), benches and tests. The runtime opens its file
 * through `openCurrentDatabase` (database_file.ts), which loads the migrations only when needed.
 */
import type { DatabaseSync } from "node:sqlite";
import { openDatabaseFile } from "./database_file.ts";
import { migrations } from "./migrations/index.ts";

export {
  migrate,
  type Migration,
  newestSchemaVersion,
  openSnapshot,
  stopWriting,
  userVersion,
} from "./database_file.ts";

/**
 * Opens (and creates) the database at `path` and applies every migration it lacks; `:memory:`
 * works for tests. Read-only and damaged files as `openDatabaseFile` says.
 */
export function openDatabase(path: string): DatabaseSync {
  return openDatabaseFile(path, migrations);
}
