/** `radar completions bash|zsh|fish`. */
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";
import { bashCompletion, completionShells, fishCompletion, zshCompletion } from "../completions.ts";

/** Registers `completions`. */
export function registerCompletions(program: Command, context: CliContext): void {
  program.command("completions")
    .description("print a shell completion script: source <(radar completions bash)")
    .argument("<shell>", completionShells.join(" | "))
    .action((shell: string) => {
      const scripts = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion };
      const script = scripts[shell as keyof typeof scripts];
      if (!script) {
        throw new UsageError(`Cannot complete for ${shell}: use ${completionShells.join(", ")}`);
      }
      context.io.stdout(script(program));
    });
}
