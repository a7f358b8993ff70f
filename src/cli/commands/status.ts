/** `radar status`: config, data, database, model server. Other concerns add their lines. */
import { statusSections } from "./status_sections.ts";
import { sourceHealthLines } from "../../sources/source_health_text.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { ExitCode } from "../../core/errors.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import { watcherReports } from "../../daemon/watcher_report.ts";
import { asTheDaemonRuns } from "../../daemon/config_watch.ts";

/** Registers `status`. Exits 1 when the model server is unreachable. */
export function registerStatus(program: Command, context: CliContext): void {
  program.command("status")
    .description("show config, data, database and model server status (exit 1: server unreachable)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      // What the running daemon does: the keys it has not applied yet as it runs them.
      const radar = await context.radar({ adjustConfig: asTheDaemonRuns });
      const { io } = context;
      let size = 0;
      try {
        size = Deno.statSync(radar.databasePath).size;
      } catch { /* not yet written */ }
      const status = await radar.model.status();
      if (!status.reachable) context.setExitCode(ExitCode.failure);
      const sections: string[] = [];
      const watchers = watcherReports(radar.config, radar.watchedFiles, Deno.env.toObject());
      for (const section of statusSections) sections.push(...await section(radar, watchers));
      // Built once: the text lines and --json's records come from the same look.
      const sources = await radar.sourceHealth.records(Deno.env.toObject());
      sections.push(...sourceHealthLines(sources, radar.config.radar.timezone || undefined));
      const database = {
        path: radar.databasePath,
        bytes: size,
        conversations: radar.conversations.count(),
        facts: radar.facts.countFacts(),
        integrity: radar.database.integrity(size),
        readOnly: radar.database.readOnly() ?? null,
      };
      if (options.json) {
        return printJson(context, {
          config: radar.loaded.path ?? null,
          dataDir: radar.dataDir,
          database,
          llm: status,
          sections,
          sources,
          watchers,
          channels: radar.channels.status(),
        });
      }
      io.stdout(`config:    ${radar.loaded.path ?? "(none: embedded defaults)"}\n`);
      io.stdout(`data dir:  ${radar.dataDir}\n`);
      io.stdout(
        `database:  ${database.path} (${
          (size / 1024).toFixed(0)
        } KiB; ${database.conversations} conversations, ${database.facts} facts)\n`,
      );
      io.stdout(`  ${database.integrity}\n`);
      if (database.readOnly) io.stdout(`  read-only: ${database.readOnly}\n`);
      io.stdout(`llm:       ${status.provider} ${status.baseUrl} model ${status.model}\n`);
      io.stdout(`  reachable: ${status.reachable ? "yes" : "no"}\n`);
      if (status.modelPresent !== undefined) {
        io.stdout(`  model present: ${status.modelPresent ? "yes" : "no"}\n`);
      }
      if (status.supportsTools !== undefined) {
        io.stdout(`  tools supported: ${status.supportsTools ? "yes" : "no"}\n`);
      }
      if (status.contextLength) io.stdout(`  context length: ${status.contextLength}\n`);
      if (status.problem) io.stdout(`  problem: ${status.problem}\n`);
      for (const line of sections) io.stdout(`${line}\n`);
    });
}
