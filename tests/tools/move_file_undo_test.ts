/**
 * move_file and write_file on real files: moves, renames and copies that never overwrite, folders
 * created for the destination, every change journaled, and undo that restores exactly what was
 * there (and refuses when the file changed since or the old place is taken).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { moveFileTool } from "../../src/tools/move_file.ts";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { pruneJournal, undoChange } from "../../src/away/file_undo.ts";
import { journalFolder } from "../../src/away/file_journal.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteActionJournal } from "../../src/adapters/sqlite/action_journal_store.ts";
import type { ManualClock } from "../../src/adapters/clock.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import { call, type TempHome, tempHome, toolDeps, writableHome } from "./tool_harness.ts";

function setup(home: TempHome, writable = true) {
  const db = openDatabase(":memory:");
  const journal = new SqliteActionJournal(db);
  const deps = toolDeps(home, writable ? writableHome : () => {}, { journal });
  return { deps, journal, db, clock: deps.clock as ManualClock };
}

const taskContext = (): ToolContext => ({
  kind: "task",
  conversationId: undefined,
  interactive: false,
  signal: new AbortController().signal,
});

Deno.test("move_file moves into new folders, journals it, and undo puts it back", async () => {
  const home = tempHome();
  const { deps, journal, db } = setup(home);
  try {
    const tool = moveFileTool(deps);
    Deno.mkdirSync(join(home.home, "Downloads"));
    Deno.writeTextFileSync(join(home.home, "Downloads/scan.pdf"), "%PDF-1.7 invoice");
    const result = await call(tool, {
      source: "~/Downloads/scan.pdf",
      destination: "~/Documents/Filed/invoice/2026-11-02 ACME invoice.pdf",
    }, taskContext());
    assert.equal(result.outcome, "ok", result.text);
    assert.equal(
      result.text,
      "Moved ~/Downloads/scan.pdf to ~/Documents/Filed/invoice/2026-11-02 ACME invoice.pdf. " +
        "Undo: radar undo 1.",
    );
    const filed = join(home.home, "Documents/Filed/invoice/2026-11-02 ACME invoice.pdf");
    assert.equal(Deno.readTextFileSync(filed), "%PDF-1.7 invoice");
    assert.equal(existsSync(join(home.home, "Downloads/scan.pdf")), false);
    const [entry] = journal.recent(5);
    assert.equal(entry.kind, "move");
    assert.equal(entry.from, join(home.home, "Downloads/scan.pdf"));
    assert.equal(entry.runKind, "task");
    assert.deepEqual(entry.createdFolders, [
      join(home.home, "Documents"),
      join(home.home, "Documents/Filed"),
      join(home.home, "Documents/Filed/invoice"),
    ]);
    const undone = await undoChange({ ...deps, journal });
    assert.equal(undone.ok, true);
    assert.equal(Deno.readTextFileSync(join(home.home, "Downloads/scan.pdf")), "%PDF-1.7 invoice");
    assert.equal(existsSync(join(home.home, "Documents")), false, "created folders removed");
    assert.match(journal.get(1)!.undoNote!, /^moved ~\/Documents\/Filed\/.* back to ~\/Downloads/);
    const twice = await undoChange({ ...deps, journal }, 1);
    assert.equal(twice.ok, false);
    assert.match(!twice.ok ? twice.reason : "", /was undone already/);
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("move_file never overwrites; into a folder keeps the name; copy leaves the source", async () => {
  const home = tempHome();
  const { deps, db } = setup(home);
  try {
    const tool = moveFileTool(deps);
    Deno.mkdirSync(join(home.home, "in"));
    Deno.mkdirSync(join(home.home, "out"));
    Deno.writeTextFileSync(join(home.home, "in/a.txt"), "new");
    Deno.writeTextFileSync(join(home.home, "out/a.txt"), "precious");
    let result = await call(tool, { source: "~/in/a.txt", destination: "~/out/" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /^~\/out\/a\.txt already exists; nothing was moved/);
    assert.equal(Deno.readTextFileSync(join(home.home, "out/a.txt")), "precious");
    result = await call(tool, { source: "~/in/a.txt", destination: "~/out/b.txt", copy: true });
    assert.equal(result.text, "Copied ~/in/a.txt to ~/out/b.txt. Undo: radar undo 1.");
    assert.equal(Deno.readTextFileSync(join(home.home, "in/a.txt")), "new");
    result = await call(tool, { source: "~/in/a.txt", destination: "~/in/renamed.txt" });
    assert.match(result.text, /^Moved ~\/in\/a\.txt to ~\/in\/renamed\.txt\./);
    result = await call(tool, { source: "~/in", destination: "~/elsewhere" });
    assert.match(result.text, /is not a regular file/);
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("move_file refuses protected places, links into secrets, and asks outside the roots", async () => {
  const home = tempHome();
  const { deps, db } = setup(home, false);
  try {
    const tool = moveFileTool(deps);
    Deno.mkdirSync(join(home.home, ".ssh"));
    Deno.writeTextFileSync(join(home.home, ".ssh/id_ed25519"), "KEY");
    Deno.mkdirSync(join(home.home, "Downloads"));
    Deno.writeTextFileSync(join(home.home, "Downloads/a.pdf"), "pdf");
    let result = await call(tool, { source: "~/.ssh/id_ed25519", destination: "~/Downloads/k" });
    assert.equal(result.outcome, "refused");
    result = await call(tool, { source: "~/Downloads/a.pdf", destination: "~/.bashrc" });
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /protected by rule/);
    Deno.linkSync(join(home.home, ".ssh/id_ed25519"), join(home.home, "Downloads/hard.pdf"));
    const questions: string[] = [];
    const yes: ToolContext = {
      kind: "chat",
      interactive: true,
      signal: new AbortController().signal,
      confirm: (question) => {
        questions.push(question);
        return Promise.resolve(true);
      },
    };
    result = await call(tool, { source: "~/Downloads/hard.pdf", destination: "~/x.pdf" }, yes);
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /hard link to a file protected/);
    result = await call(tool, { source: "~/Downloads/a.pdf", destination: "~/Filed/a.pdf" });
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /nobody can say yes in a ask run/);
    result = await call(tool, { source: "~/Downloads/a.pdf", destination: "~/Filed/a.pdf" }, yes);
    assert.equal(result.outcome, "ok");
    assert.match(
      questions.at(-1)!,
      /^Radar wants to move ~\/Downloads\/a\.pdf to ~\/Filed\/a\.pdf/,
    );
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("write_file journals creates, replaces and appends; undo restores each", async () => {
  const home = tempHome();
  const { deps, journal, db } = setup(home);
  try {
    const tool = writeFileTool(deps);
    const path = join(home.home, "notes/today.md");
    let result = await call(tool, { path: "~/notes/today.md", content: "first" });
    assert.equal(result.text, "Created ~/notes/today.md (5 bytes). Undo: radar undo 1.");
    result = await call(tool, { path: "~/notes/today.md", content: " more", append: true });
    assert.match(result.text, /Undo: radar undo 2\.$/);
    result = await call(tool, { path: "~/notes/today.md", content: "rewritten" });
    assert.match(result.text, /^Replaced/);
    const replace = journal.get(3)!;
    assert.equal(replace.kind, "replace");
    assert.equal(replace.before?.size, 10);
    assert.equal(
      Deno.readTextFileSync(join(journalFolder(home.dataDir), replace.backup!)),
      "first more",
    );
    assert.equal((await undoChange({ ...deps, journal }, 3)).ok, true);
    assert.equal(Deno.readTextFileSync(path), "first more");
    assert.equal((await undoChange({ ...deps, journal }, 2)).ok, true);
    assert.equal(Deno.readTextFileSync(path), "first");
    Deno.writeTextFileSync(path, "the user edited it");
    const refused = await undoChange({ ...deps, journal }, 1);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.reason : "", /changed \(or went away\) since change #1/);
    assert.equal(Deno.readTextFileSync(path), "the user edited it");
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("undo of a move never overwrites a file that took the old place", async () => {
  const home = tempHome();
  const { deps, journal, db } = setup(home);
  try {
    const tool = moveFileTool(deps);
    Deno.writeTextFileSync(join(home.home, "a.txt"), "moved");
    await call(tool, { source: "~/a.txt", destination: "~/b.txt" });
    Deno.writeTextFileSync(join(home.home, "a.txt"), "a newer file");
    const result = await undoChange({ ...deps, journal }, 1);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : "", /~\/a\.txt exists now; nothing was overwritten/);
    assert.equal(Deno.readTextFileSync(join(home.home, "a.txt")), "a newer file");
    assert.equal(Deno.readTextFileSync(join(home.home, "b.txt")), "moved");
  } finally {
    db.close();
    home.dispose();
  }
});

Deno.test("journal retention drops old entries and their saved copies", async () => {
  const home = tempHome();
  const { deps, journal, db, clock } = setup(home);
  try {
    const tool = writeFileTool(deps);
    await call(tool, { path: "~/x.txt", content: "one" });
    await call(tool, { path: "~/x.txt", content: "two" });
    const backup = join(journalFolder(home.dataDir), journal.get(2)!.backup!);
    assert.equal(existsSync(backup), true);
    clock.advance(31 * 86_400_000);
    assert.equal(await pruneJournal({ ...deps, journal }, 30, 1024 ** 3), 2);
    assert.equal(existsSync(backup), false);
    assert.deepEqual(journal.recent(5), []);
  } finally {
    db.close();
    home.dispose();
  }
});
