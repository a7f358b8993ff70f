import assert from "node:assert/strict";
import { commandNames, commandRegistrars } from "../../src/cli/commands/index.ts";

Deno.test("every command in the index loads its file's register function, and every command file is in the index", async () => {
  for (const registrar of commandRegistrars) {
    assert.equal(typeof await registrar.load(), "function", `${registrar.name}.ts`);
  }
  const folder = new URL("../../src/cli/commands/", import.meta.url);
  const registering = [...Deno.readDirSync(folder)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".ts"))
    .filter((entry) =>
      /export function register[A-Z]\w*\(\s*program: Command/.test(
        Deno.readTextFileSync(new URL(entry.name, folder)),
      )
    )
    .map((entry) => entry.name.replace(/\.ts$/, ""));
  assert.deepEqual(
    [...registering].sort(),
    [...commandNames].sort(),
    "a file under src/cli/commands/ that registers a command is named in index.ts",
  );
});
