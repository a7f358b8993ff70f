/** The Undo line of a "Radar changed N files" notice names the changes' own ids. */
import assert from "node:assert/strict";
import { undoLine } from "../../src/away/change_notices.ts";

Deno.test("the Undo line names each change's id (a range past three), never a placeholder", () => {
  assert.equal(undoLine([7]), "Undo: radar undo 7");
  assert.equal(undoLine([7, 8, 9]), "Undo: radar undo 7 · radar undo 8 · radar undo 9");
  assert.equal(
    undoLine([7, 8, 9, 12]),
    "Undo: radar undo 7 … radar undo 12 (one at a time; radar undo --list shows them)",
  );
});
