/** `radar hooks list`: every hook handler by point and priority (config rules and plugin hooks). */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** Registers `hooks` and its subcommand. */
export function registerHooks(program: Command, context: CliContext): void {
  const hooks = program.command("hooks").description("hooks: config rules and plugin hooks");
  hooks.command("list").description("list hooks by point, in the order they run").action(
    async () => {
      const radar = await context.radar();
      const { io } = context;
      const registered = radar.hooks.list().filter((hook) => !hook.source.startsWith("plugins"));
      const plugins = (await radar.plugins())?.hooks.entries() ?? [];
      if (!radar.config.hooks.enabled) io.stdout("Config rules are off (hooks.enabled).\n");
      if (!registered.length && !plugins.length) {
        io.stdout("No hooks. Add rules under hooks.rules in radar.yaml (see docs/extending.md).\n");
        return;
      }
      for (const hook of registered) {
        io.stdout(
          `${hook.point.padEnd(18)} ${String(hook.priority).padStart(4)}  ${hook.source}  ` +
            `${hook.name}: ${hook.description}${hook.failClosed ? " (fail-closed)" : ""}\n`,
        );
      }
      for (const hook of plugins) {
        io.stdout(
          `${hook.point.padEnd(18)}  100  plugin:${hook.plugin}  ${hook.function} ` +
            `(plugin priority ${hook.priority})\n`,
        );
      }
    },
  );
}
