/** Radar's entry point: runs the CLI and exits with its code. */
import { runCli } from "./src/cli/program.ts";
import { terminalIo } from "./src/cli/terminal_io.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, terminalIo());
  Deno.exit(code);
}
