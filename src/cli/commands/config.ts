/** `radar config show|path|validate`. */
import { toYamlText } from "../../config/yaml_text.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { maskSecrets } from "../../config/mask_secrets.ts";

/** Registers `config` and its subcommands. */
export function registerConfig(program: Command, context: CliContext): void {
  const config = program.command("config").description("show or check the configuration");
  config.command("show")
    .description("print the effective configuration (secrets masked)")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const loaded = await context.config();
      for (const warning of loaded.warnings) context.io.stderr(`warning: ${warning}\n`);
      const masked = maskSecrets(loaded.config);
      if (options.json) {
        context.io.stdout(JSON.stringify(masked, null, 2) + "\n");
        return;
      }
      context.io.stdout(
        `# ${loaded.path ?? "embedded defaults (no config file)"}\n${toYamlText(masked)}`,
      );
    });
  config.command("path")
    .description("print the config file in use and the data directory")
    .action(async () => {
      const loaded = await context.config();
      context.io.stdout(
        `config: ${loaded.path ?? "(none: embedded defaults)"}\ndata:   ${loaded.dataDir}\n`,
      );
    });
  config.command("validate")
    .description("check the configuration; exit 2 when invalid")
    .action(async () => {
      const loaded = await context.config();
      for (const warning of loaded.warnings) context.io.stderr(`warning: ${warning}\n`);
      context.io.stdout(`${loaded.path ?? "embedded defaults"}: valid\n`);
    });
}
