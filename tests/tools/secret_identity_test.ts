/**
 * Issue 23, class 7: a secret is its file, not its name. A hard link to ~/.netrc is refused however
 * many files the protected folders hold (the check compares device and inode of every protected
 * file before any folder walk), and shell histories are protected under the names the shells use
 * by default (zsh's ~/.histfile, ash's ~/.ash_history, …) and under $HISTFILE. The hard-link test
 * runs as the suite's user and, when that is root, again as a normal user (the test user).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";
import { forEachUser } from "../helpers/system_parts.ts";

forEachUser(import.meta.url, [], {
  name: "a hard link to ~/.netrc is the secret, behind protected folders of many files",
  fn: hardLinkIsTheSecret,
}).forEach((test) => Deno.test(test));

async function hardLinkIsTheSecret() {
  const home = tempHome();
  const h = home.home;
  try {
    Deno.writeTextFileSync(join(h, ".netrc"), "machine x password NETRC_SECRET\n");
    // Protected folders full of files (a GnuPG home, a password store) come before its rule.
    for (const folder of [".gnupg/private-keys-v1.d", ".password-store/sites"]) {
      Deno.mkdirSync(join(h, folder), { recursive: true });
      for (let index = 0; index < 2600; index++) {
        Deno.writeTextFileSync(join(h, folder, `cache-${index}`), "");
      }
    }
    Deno.mkdirSync(join(h, "notes"));
    Deno.linkSync(join(h, ".netrc"), join(h, "notes", "shopping.txt"));
    const result = await call(readFileTool(toolDeps(home)), { path: "~/notes/shopping.txt" });
    assert.equal(result.outcome, "refused", result.text);
    assert.match(result.text, /hard link to a file protected by rule ~\/\.netrc/);
    assert.ok(!result.text.includes("NETRC_SECRET"));
  } finally {
    home.dispose();
  }
}

Deno.test("shell histories are protected under the shells' default names and $HISTFILE", async () => {
  const home = tempHome();
  const h = home.home;
  try {
    const names = [".histfile", ".ash_history", ".local/share/nushell/history.txt", "my.hist"];
    for (const name of names) {
      Deno.mkdirSync(join(h, name, ".."), { recursive: true });
      Deno.writeTextFileSync(join(h, name), "export TOKEN=HISTORY_SECRET\n");
    }
    const deps = toolDeps(home);
    const tool = readFileTool({ ...deps, env: { ...deps.env, HISTFILE: join(h, "my.hist") } });
    for (const name of names) {
      const result = await call(tool, { path: `~/${name}` });
      assert.equal(result.outcome, "refused", `${name}: ${result.text}`);
      assert.ok(!result.text.includes("HISTORY_SECRET"));
    }
  } finally {
    home.dispose();
  }
});
