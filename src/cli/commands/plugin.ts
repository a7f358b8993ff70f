/** `radar plugin list|show|install|approve|reject|enable|disable|rollback|test|remove`. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { RadarError, UsageError } from "../../core/errors.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import type { PluginSystem } from "../../plugins/plugin_system.ts";
import { isFolder } from "../../config/quiet_stat.ts";

async function plugins(context: CliContext): Promise<PluginSystem> {
  const system = await (await context.radar()).plugins();
  if (!system) {
    throw new RadarError("Cannot manage plugins: plugins.enabled is false in the config");
  }
  return system;
}

async function showDetails(context: CliContext, name: string): Promise<void> {
  const system = await plugins(context);
  const details = system.api.details(name);
  const networkWarnings = await system.api.networkWarnings(name);
  const out = (line = "") => context.io.stdout(`${line}\n`);
  const summary = details.summary;
  out(`${name} ${summary?.version ?? ""} (${details.trustLevel} trust, ${summary?.status ?? "?"})`);
  if (summary?.description) out(`  ${summary.description}`);
  out(`  author: ${details.author}   folder: ${details.location}`);
  if (summary?.tools.length) out(`  tools: ${summary.tools.join(", ")}`);
  out();
  out("It asks to:");
  for (const line of details.permissions) out(`  - ${line}`);
  for (const line of [...details.warnings, ...networkWarnings]) out(`  ${line}`);
  /** A titled block after an empty line, left out when it has no lines. */
  const section = (title: string, lines: string[]) => {
    if (lines.length) [undefined, title, ...lines].forEach((line) => out(line));
  };
  const { sinceApproval, added, removed } = details.permissionDiff;
  section("Changes since the approved version:", [
    ...(sinceApproval ? added.map((permission) => `  + ${permission.description}`) : []),
    ...(sinceApproval ? removed.map((permission) => `  - ${permission.description}`) : []),
  ]);
  section("Problems:", details.errors.map((line) => `  - ${line}`));
  section(
    "Tests:",
    (details.review?.tests ?? []).map((test) =>
      `  ${test.passed ? "pass" : "FAIL"}  ${test.name}: ${test.detail}`
    ),
  );
  out();
  out(`Files: ${Object.keys(details.files).sort().join(", ")}`);
}

/** Registers `plugin` and its subcommands. */
export function registerPlugin(program: Command, context: CliContext): void {
  const plugin = program.command("plugin").description("install, review and manage plugins");
  const out = (text: string) => context.io.stdout(`${text}\n`);
  plugin.command("list")
    .description("every plugin with its status")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const system = await plugins(context);
      const changes = await system.refresh();
      const rows = system.api.list();
      if (options.json) return printJson(context, { changes, plugins: rows });
      for (const change of changes) out(`(${change})`);
      if (!rows.length) return out("No plugins. Install one with: radar plugin install DIR");
      out(`${"NAME".padEnd(20)} ${"VERSION".padEnd(8)} ${"TRUST".padEnd(8)} TOOLS  STATUS`);
      for (const row of rows) {
        out(
          `${row.name.padEnd(20)} ${row.version.padEnd(8)} ${row.trustLevel.padEnd(8)} ${
            String(row.tools.length).padStart(5)
          }  ${row.status}`,
        );
      }
    });
  plugin.command("show")
    .description("what a plugin is, what it asks for in plain words, its tests and files")
    .argument("<name>", "plugin name")
    .option("--json", jsonOptionHelp)
    .action(async (name: string, options: { json?: boolean }) => {
      if (!options.json) return await showDetails(context, name);
      const system = await plugins(context);
      printJson(context, {
        ...system.api.details(name),
        networkWarnings: await system.api.networkWarnings(name),
      });
    });
  plugin.command("install")
    .description("validate a plugin folder and file it for review")
    .argument("<dir>", "the plugin folder")
    .action(async (dir: string) => {
      const folder = resolve(context.io.cwd, dir);
      if (!isFolder(folder)) {
        throw new UsageError(`Cannot install ${dir}: ${folder} is not a folder`);
      }
      const system = await plugins(context);
      const review = system.manager.install(folder);
      if (review.errors.length) {
        throw new RadarError(
          `Cannot install ${review.name}: ${review.errors.join("; ")} (kept in failed/)`,
        );
      }
      out(`Plugin ${review.name} installed to pending review. It asks to:`);
      for (const line of system.api.details(review.name).permissions) out(`  - ${line}`);
      out(
        `Review it with: radar plugin show ${review.name}; then radar plugin approve ${review.name}`,
      );
    });
  plugin.command("approve")
    .description("approve a pending plugin (records its files' hash and permissions) and enable it")
    .argument("<name>", "plugin name")
    .action(async (name: string) => {
      const system = await plugins(context);
      const row = await system.api.approve(name);
      out(
        `Plugin ${name} approved and enabled (${row?.tools.length ?? 0} tools: ${
          row?.tools.join(", ") ?? ""
        }).`,
      );
    });
  const switches = [
    ["reject", "reject a pending plugin (moves it to failed/)", "rejected"],
    ["enable", "enable an approved plugin", "enabled"],
    ["disable", "disable a plugin (it stays approved)", "disabled"],
  ] as const;
  for (const [command, description, done] of switches) {
    plugin.command(command)
      .description(description)
      .argument("<name>", "plugin name")
      .action(async (name: string) => {
        await (await plugins(context)).api[command](name);
        out(`Plugin ${name} ${done}.`);
      });
  }
  plugin.command("rollback")
    .description("go back to a previously approved version")
    .argument("<name>", "plugin name")
    .argument("<version>", "version, e.g. 1.0.0")
    .action(async (name: string, version: string) => {
      const system = await plugins(context);
      system.manager.rollback(name, version);
      await system.refresh();
      out(`Plugin ${name} rolled back to ${version} and enabled.`);
    });
  plugin.command("test")
    .description("run the plugin's tests.yaml in the sandbox")
    .argument("<name>", "plugin name")
    .action(async (name: string) => {
      const system = await plugins(context);
      const outcomes = await system.manager.test(name);
      for (const test of outcomes) {
        out(`${test.passed ? "pass" : "FAIL"}  ${test.name}: ${test.detail}`);
      }
      const failures = outcomes.filter((test) => !test.passed).length;
      out(`${outcomes.length - failures} passed, ${failures} failed`);
      if (failures) context.setExitCode(1);
    });
  plugin.command("remove")
    .description("remove a plugin everywhere and revoke its approvals")
    .argument("<name>", "plugin name")
    .action(async (name: string) => {
      const system = await plugins(context);
      system.manager.remove(name);
      await system.refresh();
      out(`Plugin ${name} removed.`);
    });
}
