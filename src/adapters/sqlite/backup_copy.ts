/**
 * A backup's copy of radar.db without the config's secret-shaped values that Radar copied into it:
 * the MCP approvals keep each server's command line and URL (`012_mcp`), so they get the same cut
 * as the archived config (`src/adapters/backup/secret_shapes.ts`). The approval then no longer
 * matches its hash: after a restore the server offers no tools until approved again with the re-entered key.
 * `secure_delete` zeroes the replaced bytes, so no old value stays in a free page.
 */
import { DatabaseSync } from "node:sqlite";
import { argvWithoutSecrets, urlsToOrigins } from "../backup/secret_shapes.ts";

/** Cuts the copied secrets out of the database file at `path`; the names of the servers cut. */
export function withoutCopiedSecrets(path: string): string[] {
  const db = new DatabaseSync(path);
  const cut: string[] = [];
  try {
    db.exec("PRAGMA secure_delete = ON");
    const table = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mcp_approvals'",
    ).get();
    if (!table) return cut;
    const rows = db.prepare("SELECT name, command_json, url FROM mcp_approvals").all() as Array<
      { name: string; command_json: string; url: string }
    >;
    const update = db.prepare("UPDATE mcp_approvals SET command_json = ?, url = ? WHERE name = ?");
    db.exec("BEGIN");
    for (const row of rows) {
      let command: unknown;
      try {
        command = JSON.parse(row.command_json);
      } catch {
        command = [];
      }
      const argv = argvWithoutSecrets(
        Array.isArray(command) ? command.map((word) => String(word)) : [],
      );
      const url = urlsToOrigins(row.url);
      if (!argv.cut && !url.cut) continue;
      update.run(JSON.stringify(argv.argv), url.text, row.name);
      cut.push(row.name);
    }
    db.exec("COMMIT");
    return cut;
  } finally {
    if (db.isTransaction) db.exec("ROLLBACK");
    db.close();
  }
}
