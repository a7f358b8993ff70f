/** `radar eval [--model M] [--server URL] [--only TEXT]`: the built-in tasks against the model. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { runEvalCommand } from "../../eval/eval_command.ts";

/** Registers `eval`. */
export function registerEval(program: Command, context: CliContext): void {
  program.command("eval")
    .description(
      "score the model on built-in tasks, each in a scratch home (exit 1: a task failed)",
    )
    .option("--model <name>", "the model to score (default: llm.model)")
    .option("--server <url>", "the model server (default: llm.base_url)")
    .option("--only <text>", "only the tasks whose id contains this")
    .action(async (options: { model?: string; server?: string; only?: string }) => {
      const loaded = await context.config();
      const code = await runEvalCommand({
        env: context.io.env,
        configPath: loaded.path,
        ...options,
        write: (line) => context.io.stdout(`${line}\n`),
      });
      context.setExitCode(code);
    });
}
