/**
 * The reference filesystem server started the way most guides show it, `npx -y …`, inside the
 * sandbox without network: npx runs offline from an npm cache that the test fills beforehand
 * (outside the sandbox). It needs node's npx and the npm registry (RADAR_TEST_SKIP=node skips it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findProgram } from "../../scripts/system_parts.ts";
import { fillNpxCache, npxCacheFolder, npxServerPackage } from "../../scripts/test_caches.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";
import { tempHome, toolDeps } from "../tools/tool_harness.ts";
import { approvalOf, approveAndOpen, MemoryApprovals, runTool } from "./mcp_harness.ts";

const serverPackage = npxServerPackage;
const npx = findProgram("npx");
/** Outside /tmp (the sandbox's /tmp is private) and outside the test's home; setup fills it. */
const npmCache = npxCacheFolder();

/** The package in the npx cache (setup put it there; needs the registry otherwise). */
const fillCache = () => fillNpxCache(npx!, npmCache);

Deno.test(needing([onLinux, "bubblewrap", "node"], {
  name: "an npx-started server runs offline from the npm cache inside the sandbox",
  async fn(t) {
    const problem = await fillCache();
    if (problem) {
      throw new Error(
        `Cannot fill the npm cache from the npm registry (${problem}); ` +
          "RADAR_TEST_SKIP=node skips this test",
      );
    }
    const home = tempHome();
    const folder = join(home.home, "notes");
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(join(folder, "todo.txt"), "buy bread");
    Deno.writeTextFileSync(join(home.home, "private.txt"), "outside secret");
    const approval = approvalOf(
      "files",
      [npx!, "-y", "--offline", "--cache", npmCache, serverPackage, folder],
      // npm writes into its cache even offline (measured: read-only, npx exits at once).
      { folders: [folder, npmCache] },
    );
    const deps = toolDeps(home, () => {}, { env: { HOME: home.home } });
    const source = await approveAndOpen(deps, new MemoryApprovals(), approval);
    try {
      await t.step("its tools join with the source label and work on the folder", async () => {
        assert.deepEqual(source.problems, []);
        assert.ok(source.tools.some((tool) => tool.name === "mcp_files__read_text_file"));
        const read = await runTool(source.tools, "mcp_files__read_text_file", {
          path: join(folder, "todo.txt"),
        });
        assert.match(read.text, /buy bread/);
      });
      await t.step("nothing outside its folder", async () => {
        const outside = await runTool(source.tools, "mcp_files__read_text_file", {
          path: join(home.home, "private.txt"),
        });
        assert.ok(!outside.text.includes("outside secret"), outside.text);
      });
    } finally {
      await source.close();
      home.dispose();
    }
  },
}));
