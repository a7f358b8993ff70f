/**
 * The action journal stays within `tools.files.journal_max_mib`, its saved originals included:
 * replacing files keeps their originals until the bound, then the oldest originals go first and
 * those changes say they can no longer be undone; the newest still undo. The rows alone are
 * trimmed oldest first when they pass the bound.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { undoChange } from "../../src/away/file_undo.ts";
import { journalFolder } from "../../src/away/file_journal.ts";
import { notUndoableNote } from "../../src/away/action_journal.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteActionJournal } from "../../src/adapters/sqlite/action_journal_store.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import { call, tempHome, toolDeps, writableHome } from "../tools/tool_harness.ts";

const mib = 1024 * 1024;
const taskContext = (): ToolContext => ({
  kind: "task",
  interactive: false,
  signal: new AbortController().signal,
});

/** Bytes of the files in `folder` (none: 0). */
function folderBytes(folder: string): number {
  try {
    return [...Deno.readDirSync(folder)].reduce(
      (sum, entry) => sum + Deno.statSync(join(folder, entry.name)).size,
      0,
    );
  } catch {
    return 0;
  }
}

Deno.test("past journal_max_mib the oldest originals go first, and those changes say so", async () => {
  const home = tempHome();
  const db = openDatabase(":memory:");
  try {
    const journal = new SqliteActionJournal(db);
    const deps = toolDeps(home, (config) => {
      writableHome(config);
      config.tools.files.journal_max_mib = 8;
    }, { journal });
    const write = writeFileTool(deps);
    for (let index = 1; index <= 4; index++) {
      Deno.writeFileSync(join(home.home, `scan${index}.txt`), new Uint8Array(3 * mib).fill(65));
      const replaced = await call(
        write,
        { path: `~/scan${index}.txt`, content: "short\n" },
        taskContext(),
      );
      assert.equal(replaced.outcome, "ok", replaced.text);
      assert.ok(folderBytes(journalFolder(home.dataDir)) <= 8 * mib, `after change #${index}`);
    }
    const entries = journal.recent(10).reverse();
    assert.deepEqual(entries.map((entry) => entry.copyDroppedAt !== undefined), [
      true,
      true,
      false,
      false,
    ]);
    assert.equal(folderBytes(journalFolder(home.dataDir)), 6 * mib);
    assert.match(notUndoableNote(entries[0])!, /not undoable: its saved original was dropped/);
    const refused = await undoChange({ ...deps, journal }, 1);
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.match(refused.reason, /can no longer be undone.*journal_max_mib/);
    const undone = await undoChange({ ...deps, journal }, 4);
    assert.equal(undone.ok, true, undone.ok ? "" : undone.reason);
    assert.equal(Deno.statSync(join(home.home, "scan4.txt")).size, 3 * mib);
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("journal rows alone past the bound are trimmed oldest first", () => {
  const db = openDatabase(":memory:");
  try {
    const journal = new SqliteActionJournal(db);
    for (let index = 0; index < 100; index++) {
      journal.record({
        tool: "move_file",
        kind: "move",
        path: `/home/ada/Filed/${"x".repeat(100)}-${index}.pdf`,
        from: `/home/ada/Downloads/${index}.pdf`,
        after: { size: 1, mtimeMs: 0 },
        createdFolders: [],
      }, new Date("2026-11-23T18:15:00Z"));
    }
    const all = journal.rowBytes();
    const trimmed = journal.trimRows(all / 2);
    assert.ok(trimmed.length >= 49 && trimmed.length <= 51, `${trimmed.length} trimmed`);
    assert.equal(trimmed[0].id, 1, "oldest first");
    assert.ok(journal.rowBytes() <= all / 2);
    assert.equal(journal.recent(1)[0].id, 100, "the newest stay");
  } finally {
    db.close();
  }
});
