/** The reference filesystem MCP server from npm, in the sandbox with one approved folder. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempHome, toolDeps } from "../tools/tool_harness.ts";
import {
  approvalOf,
  approveAndOpen,
  cacheSpecifier,
  denoDir,
  denoServer,
  MemoryApprovals,
  runTool,
} from "./mcp_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";
import { sandboxedServerPackages } from "../../scripts/test_caches.ts";

const [serverPackage] = sandboxedServerPackages;

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "the filesystem server lists and reads its folder and nothing outside it",
  fn: async () => {
    await cacheSpecifier(serverPackage);
    const home = tempHome();
    const folder = join(home.home, "notes");
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(join(folder, "todo.txt"), "buy milk");
    Deno.writeTextFileSync(join(home.home, "private.txt"), "outside secret");
    Deno.mkdirSync(join(home.home, ".ssh"));
    Deno.writeTextFileSync(join(home.home, ".ssh", "id_ed25519"), "PRIVATE KEY");
    const approvals = new MemoryApprovals();
    const approval = approvalOf("files", denoServer(serverPackage, folder), {
      folders: [folder],
      env: ["DENO_DIR"],
    });
    const deps = toolDeps(home, () => {}, { env: { HOME: home.home, DENO_DIR: denoDir } });
    const source = await approveAndOpen(deps, approvals, approval);
    try {
      assert.deepEqual(source.problems, []);
      const names = source.tools.map((tool) => tool.name);
      assert.ok(names.includes("mcp_files__list_directory"), names.join(", "));
      assert.ok(source.tools.every((tool) => tool.source === "mcp:files"));
      assert.ok(source.tools.every((tool) => JSON.stringify(tool.parameters).length <= 2000));

      const listing = await runTool(source.tools, "mcp_files__list_directory", { path: folder });
      assert.deepEqual(listing.outcome, "ok");
      assert.match(listing.text, /todo.txt/);
      const read = await runTool(source.tools, "mcp_files__read_text_file", {
        path: join(folder, "todo.txt"),
      });
      assert.match(read.text, /buy milk/);
      const written = await runTool(source.tools, "mcp_files__write_file", {
        path: join(folder, "new.txt"),
        content: "from the model",
      });
      assert.deepEqual(written.outcome, "ok");
      assert.deepEqual(Deno.readTextFileSync(join(folder, "new.txt")), "from the model");

      for (const path of [join(home.home, "private.txt"), join(home.home, ".ssh", "id_ed25519")]) {
        const outside = await runTool(source.tools, "mcp_files__read_text_file", { path });
        assert.deepEqual(outside.outcome, "error", outside.text);
        assert.ok(!outside.text.includes("outside secret") && !outside.text.includes("PRIVATE"));
      }
      const escape = await runTool(source.tools, "mcp_files__read_text_file", {
        path: join(folder, "..", "private.txt"),
      });
      assert.ok(!escape.text.includes("outside secret"), escape.text);
    } finally {
      await source.close();
      home.dispose();
    }
  },
}));
