/** Every schema migration, in order. Each concern adds its own numbered file here. */
import type { Migration } from "../database.ts";
import { coreMigration } from "./001_core.ts";
import { pluginsMigration } from "./004_plugins.ts";

/** The ordered migrations applied by `openDatabase`. */
export const migrations: readonly Migration[] = [coreMigration, pluginsMigration];
