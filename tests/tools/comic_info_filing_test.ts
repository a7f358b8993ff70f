/**
 * comic_info's writes as journaled file changes: a tag written in place is one `replace`, a tag
 * with `file` is one `move` to the library place (never over an existing file); undo brings back
 * the original bytes where they were; a run without a person gets no write outside the writable
 * folders.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteActionJournal } from "../../src/adapters/sqlite/action_journal_store.ts";
import { undoChange } from "../../src/away/file_undo.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import { call, type TempHome, tempHome, toolDeps, writableHome } from "./tool_harness.ts";
import { comicTool, inHome } from "./comic_tool_harness.ts";
import { buildCbz, comicInfoXml, pages } from "../helpers/comic_factory.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";

const heartbeat = (): ToolContext => ({
  kind: "heartbeat",
  interactive: false,
  signal: new AbortController().signal,
});

function journaled(home: TempHome, writable = true) {
  const journal = new SqliteActionJournal(openDatabase(":memory:"));
  const tool = comicTool(home, writable ? writableHome : () => {}, { journal });
  const deps = { ...toolDeps(home, writable ? writableHome : () => {}), journal };
  return { tool, journal, undo: (id?: number) => undoChange(deps, id) };
}

Deno.test("comic_info set in place is one journaled replace; undo restores the original bytes", async () => {
  const home = tempHome();
  try {
    const original = await buildCbz([
      { name: "ComicInfo.xml", text: comicInfoXml({ Series: "Saga", Number: "54" }) },
      ...pages(2),
    ]);
    const path = await inHome(home, "Inbox/Saga 054.cbz", original);
    const { tool, journal, undo } = journaled(home);
    const result = await call(tool, { path, set: { Year: 2018 } }, heartbeat());
    assert.equal(result.outcome, "ok", result.text);
    assert.match(result.text, /\nUndo: radar undo 1\.$/);
    const [entry] = journal.recent(5);
    assert.equal(entry.tool, "comic_info");
    assert.equal(entry.kind, "replace");
    assert.equal(entry.path, path);
    assert.equal(entry.before?.size, original.length);
    assert.notDeepEqual(Deno.readFileSync(path), original);
    const undone = await undo();
    assert.equal(undone.ok, true, !undone.ok ? undone.reason : "");
    assert.deepEqual(Deno.readFileSync(path), original);
  } finally {
    home.dispose();
  }
});

Deno.test("comic_info set with file: tagged and moved as one change, a taken name never overwritten, undone as one", async () => {
  const home = tempHome();
  try {
    const original = await buildCbz(pages(3));
    const path = await inHome(home, "Comics/Inbox/Saga 054 (2018) (digital).cbz", original);
    const taken = await inHome(
      home,
      "Comics/Saga/Saga #054 (2018).cbz",
      new TextEncoder().encode("someone else's"),
    );
    const { tool, journal, undo } = journaled(home);
    const result = await call(
      tool,
      { path, set: { Series: "Saga", Number: "54", Year: 2018 }, file: true },
      heartbeat(),
    );
    assert.equal(result.outcome, "ok", result.text);
    assert.equal(
      result.text,
      [
        "Wrote ComicInfo.xml into ~/Comics/Inbox/Saga 054 (2018) (digital).cbz (changed: Series, Number, Year).",
        "ComicInfo.xml: Series: Saga; Number: 54; Year: 2018",
        "Filed as: ~/Comics/Saga/Saga #054 (2018) (2).cbz",
        "Undo: radar undo 1.",
      ].join("\n"),
    );
    const filed = join(home.home, "Comics/Saga/Saga #054 (2018) (2).cbz");
    assert.equal(existsSync(path), false);
    assert.equal(Deno.readTextFileSync(taken), "someone else's");
    const reread = await call(tool, { path: filed });
    assert.match(reread.text, /^ComicInfo\.xml: Series: Saga; Number: 54; Year: 2018$/m);
    assert.deepEqual(
      [...Deno.readDirSync(join(home.home, "Comics/Inbox"))].map((entry) => entry.name),
      [],
      "no temporary file is left behind",
    );
    const [entry, ...more] = journal.recent(5);
    assert.deepEqual(more, []);
    assert.deepEqual([entry.kind, entry.from, entry.path], ["move", path, filed]);
    const undone = await undo();
    assert.equal(undone.ok, true, !undone.ok ? undone.reason : "");
    assert.match(undone.ok ? undone.note : "", /back to ~\/Comics\/Inbox\/.* as it was before$/);
    assert.deepEqual(Deno.readFileSync(path), original);
    assert.equal(existsSync(filed), false);
    assert.equal(Deno.readTextFileSync(taken), "someone else's");
  } finally {
    home.dispose();
  }
});

Deno.test("comic_info files a PDF with its Info written; outside the writable folders a heartbeat gets no write", async () => {
  const home = tempHome();
  try {
    const original = buildPdf([{ text: "ACME GmbH Invoice 2026-11-02" }]);
    const path = await inHome(home, "Downloads/scan0001.pdf", original);
    const set = { title: "ACME invoice 2026-11-02", author: "ACME", kind: "invoice" };
    const outside = journaled(home, false);
    const refused = await call(outside.tool, { path, set, file: true }, heartbeat());
    assert.equal(refused.outcome, "refused", refused.text);
    assert.match(refused.text, /nobody can say yes in a heartbeat run/);
    assert.deepEqual(Deno.readFileSync(path), original, "nothing written");
    assert.deepEqual(outside.journal.recent(5), []);

    const { tool, journal, undo } = journaled(home);
    const result = await call(
      tool,
      { path, set: { ...set, date: "2026-11-02", sender: "ACME" }, file: true },
      heartbeat(),
    );
    assert.equal(result.outcome, "ok", result.text);
    const filed = join(home.home, "Documents/invoice/2026-11-02 ACME invoice.pdf");
    assert.match(result.text, /^Wrote PDF Info into ~\/Downloads\/scan0001\.pdf: Title: ACME/);
    assert.match(result.text, /\nFiled as: ~\/Documents\/invoice\/2026-11-02 ACME invoice\.pdf\n/);
    assert.deepEqual(Deno.readFileSync(filed).subarray(0, original.length), original);
    assert.equal(journal.recent(5)[0].kind, "move");
    assert.equal((await undo()).ok, true);
    assert.deepEqual(Deno.readFileSync(path), original);
    assert.equal(existsSync(join(home.home, "Documents")), false, "its folders went too");
  } finally {
    home.dispose();
  }
});
