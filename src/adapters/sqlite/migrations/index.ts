/** Every schema migration, in order. Each concern adds its own numbered file here. */
import type { Migration } from "../database.ts";
import { coreMigration } from "./001_core.ts";
import { daemonMigration } from "./003_daemon.ts";

/** The ordered migrations applied by `openDatabase`. */
export const migrations: readonly Migration[] = [coreMigration, daemonMigration];
