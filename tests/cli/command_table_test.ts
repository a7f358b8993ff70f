import assert from "node:assert/strict";
import { Command } from "../../src/cli/command_line.ts";
import type { CliContext } from "../../src/cli/context.ts";
import { commandTable, registrarsFor } from "../../src/cli/commands/index.ts";

/** Registrars only touch the context inside actions; none run here. */
const unusedContext = {} as CliContext;

function registeredNames(registrars: Awaited<ReturnType<typeof registrarsFor>>): string[] {
  const program = new Command("radar");
  for (const register of registrars) register(program, unusedContext);
  return program.commands.map((command) => command.name());
}

Deno.test("command table: each entry's registrar registers exactly the command it is named for", async () => {
  for (const entry of commandTable) {
    assert.deepEqual(registeredNames([await entry.load()]), [entry.name]);
  }
  const names = commandTable.map((entry) => entry.name);
  assert.equal(new Set(names).size, names.length, "no command twice");
});

Deno.test("command table: a command line loads only its command's registrar, else all of them", async () => {
  const globals = ["-c", "--config"];
  const only = async (args: string[]) => registeredNames(await registrarsFor(args, globals));
  const all = commandTable.map((entry) => entry.name);
  assert.deepEqual(await only(["ask", "hello"]), ["ask"]);
  assert.deepEqual(await only(["-v", "chat"]), ["chat"]);
  assert.deepEqual(await only(["-c", "radar.yaml", "status"]), ["status"]);
  assert.deepEqual(await only(["--config=radar.yaml", "task", "list"]), ["task"]);
  assert.deepEqual(await only(["--config", "ask", "memory", "list"]), ["memory"], "value skipped");
  assert.deepEqual(await only([]), all, "no command: the help lists them all");
  assert.deepEqual(await only(["--help"]), all);
  assert.deepEqual(await only(["asq"]), all, "an unknown command is reported with all known");
  assert.deepEqual(await only(["-c", "ask"]), all, "`ask` is the config path here");
  assert.deepEqual(await only(["--", "ask"]), all);
});
