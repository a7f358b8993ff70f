/** `radar eval [--model M] [--server URL] [--only TEXT]`, `radar eval --history [--json]`. */
import type { Command } from "commander";
import { join } from "node:path";
import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import { runEvalCommand, showEvalHistory } from "../../eval/eval_command.ts";
import { openDatabase } from "../../adapters/sqlite/database.ts";
import { SqliteEvalStore } from "../../adapters/sqlite/eval_store.ts";
import { ensureDataDirectory } from "../../runtime/data_directory.ts";

/** Registers `eval`. */
export function registerEval(program: Command, context: CliContext): void {
  program.command("eval")
    .description(
      "score the model on built-in tasks, or (--suite proactive) on heartbeat decisions, each " +
        "in a scratch home (exit 1: one went wrong); runs are stored (--history lists them)",
    )
    .option("--model <name>", "the model to score (default: llm.model)")
    .option("--server <url>", "the model server (default: llm.base_url)")
    .option(
      "--suite <name>",
      "tasks (built-in tasks, the default) or proactive (heartbeat decisions)",
    )
    .option("--only <text>", "only the tasks whose id contains this")
    .option("--history", "list stored eval runs instead of running the tasks")
    .option("--json", "with --history: print the runs and their tasks as JSON")
    .action(
      async (
        options: {
          model?: string;
          server?: string;
          only?: string;
          suite?: string;
          history?: boolean;
          json?: boolean;
        },
      ) => {
        const suite = options.suite ?? "tasks";
        if (suite !== "tasks" && suite !== "proactive") {
          throw new UsageError(`Unknown suite "${suite}": use tasks or proactive`);
        }
        if (options.json && !options.history) {
          throw new UsageError("--json goes with --history (radar eval --history --json)");
        }
        const loaded = await context.config();
        ensureDataDirectory(loaded.dataDir);
        const db = openDatabase(join(loaded.dataDir, "radar.db"));
        try {
          const history = new SqliteEvalStore(db);
          const write = (line: string) => context.io.stdout(`${line}\n`);
          if (options.history) {
            context.setExitCode(showEvalHistory(history, {
              json: options.json,
              write,
              timeZone: loaded.config.radar.timezone || undefined,
            }));
            return;
          }
          const code = await runEvalCommand({
            env: context.io.env,
            configPath: loaded.path,
            model: options.model,
            server: options.server,
            only: options.only,
            suite,
            write,
            history,
          });
          context.setExitCode(code);
        } finally {
          db.close();
        }
      },
    );
}
