/** `radar status`: config, data, database, model server. Other concerns add their lines. */
import { statusSections } from "./status_sections.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** Registers `status`. */
export function registerStatus(program: Command, context: CliContext): void {
  program.command("status")
    .description("show config, data, database and model server status")
    .action(async () => {
      const runtime = await context.runtime();
      const { io } = context;
      let size = 0;
      try {
        size = Deno.statSync(runtime.databasePath).size;
      } catch { /* not yet written */ }
      io.stdout(`config:    ${runtime.loaded.path ?? "(none: embedded defaults)"}\n`);
      io.stdout(`data dir:  ${runtime.dataDir}\n`);
      io.stdout(
        `database:  ${runtime.databasePath} (${
          (size / 1024).toFixed(0)
        } KiB; ${runtime.conversations.count()} conversations, ${runtime.facts.countFacts()} facts)\n`,
      );
      const { integrityLine } = await importLazily<
        typeof import("../../adapters/sqlite/maintenance.ts")
      >(new URL("../../adapters/sqlite/maintenance.ts", import.meta.url));
      io.stdout(`  ${integrityLine(runtime.db, runtime.dataDir, size)}\n`);
      const { readOnlyBecause } = await importLazily<
        typeof import("../../adapters/sqlite/database.ts")
      >(new URL("../../adapters/sqlite/database.ts", import.meta.url));
      const readOnly = readOnlyBecause(runtime.db);
      if (readOnly) io.stdout(`  read-only: ${readOnly}\n`);
      const status = await runtime.model.status();
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
      // The sections reach the daemon, tools and plugins: loaded only when status runs.
      for (const section of statusSections) {
        for (const line of await section(runtime)) io.stdout(`${line}\n`);
      }
    });
}
