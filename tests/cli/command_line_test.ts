import assert from "node:assert/strict";
import { Command, CommanderError } from "../../src/cli/command_line.ts";

function program(out: string[], err: string[]) {
  const seen: unknown[] = [];
  const root = new Command("radar")
    .version("1.2.3")
    .option("-c, --config <path>", "config file")
    .option("-v, --verbose", "more output")
    .configureOutput({ writeOut: (text) => out.push(text), writeErr: (text) => err.push(text) });
  const memory = root.command("memory").description("facts");
  memory.command("add")
    .argument("<text...>", "the fact")
    .option("--category <c>", "category", "user_preference")
    .option("--no-index", "skip indexing")
    .action((text: string[], options: Record<string, unknown>) => void seen.push(text, options));
  root.command("show <id>").option(
    "-n, --limit <n>",
    "how many",
    (value: string) => Number(value),
    20,
  )
    .action((id: string, options: Record<string, unknown>) => void seen.push(id, options));
  return { root, seen };
}

Deno.test("Command parses subcommands, variadic arguments, defaults and negations", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const { root, seen } = program(out, err);
  await root.parseAsync([
    "--config",
    "/x.yaml",
    "memory",
    "add",
    "likes",
    "tea",
    "--no-index",
    "-v",
  ]);
  assert.deepEqual(seen, [["likes", "tea"], { category: "user_preference", index: false }]);
  assert.deepEqual(root.opts(), { config: "/x.yaml", verbose: true });
});

Deno.test("Command parses option values with parsers, = syntax and negative numbers", async () => {
  const { root, seen } = program([], []);
  await root.parseAsync(["show", "7", "--limit=5"]);
  assert.deepEqual(seen, ["7", { limit: 5 }]);
  const again = program([], []);
  await again.root.parseAsync(["show", "-n", "-3", "8"]);
  assert.deepEqual(again.seen, ["8", { limit: -3 }]);
});

Deno.test("Command reports usage errors as CommanderError with readable messages", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["nope"], /unknown command 'nope'/],
    [["memory", "add"], /missing required argument 'text'/],
    [["show", "1", "--bogus"], /unknown option '--bogus'/],
    [["show", "1", "2"], /too many arguments for 'show'/],
    [["show", "1", "--limit"], /argument missing/],
  ];
  for (const [args, message] of cases) {
    const err: string[] = [];
    const { root } = program([], err);
    await assert.rejects(() => root.parseAsync(args), CommanderError);
    assert.match(err.join(""), message, args.join(" "));
  }
});

Deno.test("Command prints help and version with exit code 0", async () => {
  const out: string[] = [];
  const { root } = program(out, []);
  await assert.rejects(
    () => root.parseAsync(["memory", "add", "--help"]),
    (error: CommanderError) => error.exitCode === 0 && error.code === "commander.helpDisplayed",
  );
  assert.match(out.join(""), /^Usage: radar memory add \[options\] <text\.\.\.>/);
  assert.match(out.join(""), /--category <c> +category \(default: "user_preference"\)/);
  await assert.rejects(() => root.parseAsync(["--version"]), CommanderError);
  assert.equal(out.at(-1), "1.2.3\n");
});
