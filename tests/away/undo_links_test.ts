/**
 * Undo stays inside the places the original change was allowed: a folder of the change swapped
 * for a link afterwards (into another app's config folder, outside every writable root) is not
 * followed. Each undo is refused with one line and nothing outside is written or removed; a
 * journal row naming a saved copy outside the journal folder is refused too.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { moveFileTool } from "../../src/tools/move_file.ts";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { undoChange } from "../../src/away/file_undo.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteActionJournal } from "../../src/adapters/sqlite/action_journal_store.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import { call, type TempHome, tempHome, toolDeps } from "../tools/tool_harness.ts";

const taskContext = (): ToolContext => ({
  kind: "task",
  interactive: false,
  signal: new AbortController().signal,
});

/** A home whose only writable root is ~/Filed, with another app's config folder beside it. */
function setup(home: TempHome) {
  const db = openDatabase(":memory:");
  const journal = new SqliteActionJournal(db);
  const deps = toolDeps(home, (config) => config.tools.files.writable_roots = ["~/Filed"], {
    journal,
  });
  const at = (path: string) => join(home.home, path);
  for (const folder of ["Filed", "Downloads", ".config/otherapp"]) {
    Deno.mkdirSync(at(folder), { recursive: true });
  }
  /** Replaces the folder `path` by a link to the other app's config folder. */
  const swap = (path: string) => {
    Deno.renameSync(at(path), at(`${path}.moved-away`));
    Deno.symlinkSync(at(".config/otherapp"), at(path));
  };
  return { db, journal, deps, at, swap };
}

Deno.test("undo of a replace, a new file or a move follows no link swapped in afterwards", async () => {
  const home = tempHome();
  const { db, journal, deps, at, swap } = setup(home);
  try {
    const write = writeFileTool(deps);
    const move = moveFileTool(deps);
    Deno.writeTextFileSync(at("Filed/settings.ini"), "mine = 1\n");
    const replaced = await call(
      write,
      { path: "~/Filed/settings.ini", content: "new = 2\n" },
      taskContext(),
    );
    assert.equal(replaced.outcome, "ok", replaced.text);
    const created = await call(
      write,
      { path: "~/Filed/made.txt", content: "made\n" },
      taskContext(),
    );
    assert.equal(created.outcome, "ok", created.text);
    Deno.writeTextFileSync(at("Filed/moved.txt"), "moved\n");
    const moved = await call(
      move,
      { source: "~/Filed/moved.txt", destination: "~/Filed/sub/moved.txt" },
      taskContext(),
    );
    assert.equal(moved.outcome, "ok", moved.text);

    // Afterwards ~/Filed becomes a link into ~/.config/otherapp, where files of the same
    // content wait (so "unchanged since the change" holds through the link).
    swap("Filed");
    Deno.writeTextFileSync(at(".config/otherapp/settings.ini"), "new = 2\n");
    Deno.writeTextFileSync(at(".config/otherapp/made.txt"), "made\n");
    Deno.mkdirSync(at(".config/otherapp/sub"));
    Deno.writeTextFileSync(at(".config/otherapp/sub/moved.txt"), "moved\n");

    for (const id of [1, 2, 3]) {
      const undone = await undoChange({ ...deps, journal }, id);
      assert.equal(undone.ok, false, `change #${id} was undone through the link`);
      if (!undone.ok) assert.match(undone.reason, /link/, undone.reason);
    }
    assert.equal(Deno.readTextFileSync(at(".config/otherapp/settings.ini")), "new = 2\n");
    assert.equal(Deno.readTextFileSync(at(".config/otherapp/made.txt")), "made\n");
    assert.equal(Deno.readTextFileSync(at(".config/otherapp/sub/moved.txt")), "moved\n");
    assert.ok(!existsSync(at(".config/otherapp/moved.txt")));
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("undo of a move never moves the file back through a link swapped in at its old place", async () => {
  const home = tempHome();
  const { db, journal, deps, at, swap } = setup(home);
  try {
    Deno.writeTextFileSync(at("Downloads/scan.pdf"), "%PDF-1.7 scan");
    const moved = await call(
      moveFileTool(deps),
      { source: "~/Downloads/scan.pdf", destination: "~/Filed/scan.pdf" },
      // The source is outside the writable roots: a person said yes.
      { ...taskContext(), kind: "chat", interactive: true, confirm: () => Promise.resolve(true) },
    );
    assert.equal(moved.outcome, "ok", moved.text);
    swap("Downloads");
    const undone = await undoChange({ ...deps, journal }, 1);
    assert.equal(undone.ok, false);
    if (!undone.ok) assert.match(undone.reason, /~\/Downloads.* link/);
    assert.ok(!existsSync(at(".config/otherapp/scan.pdf")), "nothing written into the other app");
    assert.equal(Deno.readTextFileSync(at("Filed/scan.pdf")), "%PDF-1.7 scan");
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("a journal row naming a saved copy outside the journal folder is refused", async () => {
  const home = tempHome();
  const { db, journal, deps, at } = setup(home);
  try {
    Deno.mkdirSync(at(".ssh"));
    Deno.writeTextFileSync(at(".ssh/id_ed25519"), "PRIVATE KEY");
    Deno.writeTextFileSync(at("Filed/notes.txt"), "notes\n");
    const after = { size: 6, mtimeMs: Deno.statSync(at("Filed/notes.txt")).mtime!.getTime() };
    const id = journal.record({
      tool: "write_file",
      kind: "replace",
      path: at("Filed/notes.txt"),
      before: { size: 11, mtimeMs: 0 },
      backup: "../../../../.ssh/id_ed25519",
      after,
      createdFolders: [],
    }, new Date());
    const undone = await undoChange({ ...deps, journal }, id);
    assert.equal(undone.ok, false);
    assert.equal(Deno.readTextFileSync(at("Filed/notes.txt")), "notes\n");
  } finally {
    db.close();
    home.dispose();
  }
});
