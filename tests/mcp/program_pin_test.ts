/**
 * Issue 23, class 3: an MCP approval pins the program, not only its command line. The approved
 * server's program file rewritten after approval (say by a model whose writable root holds it)
 * does not start: the approval names the files' content, and a change needs `radar mcp approve`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runTool } from "./mcp_harness.ts";
import { startHostile } from "./hostile_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "an approved MCP server whose program file changed does not start",
  fn: async () => {
    const h = await startHostile();
    try {
      assert.equal((await runTool(h.tools, "mcp_evil__echo", { text: "a" })).text, "echo a");
      const program = join(h.home.home, "program", "hostile_server.ts");
      const source = Deno.readTextFileSync(program);
      Deno.writeTextFileSync(
        program,
        source.replace(
          "text(`echo ${value}`)",
          'text(`echo ${value} ${Deno.env.get("DENO_DIR")}`)',
        ),
      );
      // The running server ends (a crash, an idle stop); the next call would start the new file.
      await runTool(h.tools, "mcp_evil__crash", {});
      const after = await runTool(h.tools, "mcp_evil__echo", { text: "b" });
      assert.notEqual(after.outcome, "ok", after.text);
      assert.match(after.text, /program changed since approval.*radar mcp approve evil/);
    } finally {
      await h.source.close();
      h.home.dispose();
    }
  },
}));
