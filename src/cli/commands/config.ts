/** `radar config show|path|validate`. */
import { stringify } from "yaml";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import { lookUpConfigFile, readTextFileIfExists } from "../../config/config_file.ts";
import { maskSecrets } from "../../config/mask_secrets.ts";

/** Registers `config` and its subcommands. */
export function registerConfig(program: Command, context: CliContext): void {
  const config = program.command("config").description("show or check the configuration");
  config.command("show")
    .description("print the effective configuration (secrets masked)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const loaded = await context.config();
      for (const warning of loaded.warnings) context.io.stderr(`warning: ${warning}\n`);
      const masked = maskSecrets(loaded.config);
      if (options.json) return printJson(context, masked);
      context.io.stdout(
        `# ${loaded.path ?? "embedded defaults (no config file)"}\n${stringify(masked)}`,
      );
    });
  config.command("path")
    .description(
      "which config file is in use, which candidates were ignored and why; the data folder",
    )
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const lookup = lookUpConfigFile({
        explicitPath: context.globals().config,
        env: context.io.env,
        cwd: context.io.cwd,
        readTextFile: readTextFileIfExists,
      });
      const loaded = await context.config();
      if (options.json) {
        return printJson(context, {
          config: loaded.path ?? null,
          dataDir: loaded.dataDir,
          candidates: lookup.candidates,
        });
      }
      context.io.stdout(
        `config: ${loaded.path ?? "(none: embedded defaults)"}\ndata:   ${loaded.dataDir}\n`,
      );
      for (const candidate of lookup.candidates) {
        context.io.stdout(
          `  ${candidate.state.padEnd(7)} ${candidate.source}: ${candidate.path}${
            candidate.reason ? ` (${candidate.reason})` : ""
          }\n`,
        );
      }
    });
  config.command("validate")
    .description("check the configuration; exit 2 when invalid")
    .action(async () => {
      const loaded = await context.config();
      for (const warning of loaded.warnings) context.io.stderr(`warning: ${warning}\n`);
      context.io.stdout(`${loaded.path ?? "embedded defaults"}: valid\n`);
    });
}
