/** `radar service install|uninstall|status`: run `radar serve` at login (launchd or systemd). */
import { launchdPlist, serviceLocation, systemdUnit } from "../../daemon/service_files.ts";
import { currentRadarCommand, daemonEnvironment } from "../../daemon/daemon_command.ts";
import { runningDaemon } from "../../daemon/lock_file.ts";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { RadarError } from "../../core/errors.ts";
import { homeDirectory } from "../../config/paths.ts";
import { isFile } from "../../config/quiet_stat.ts";
import type { ServiceSpec } from "../../daemon/service_files.ts";

/** Registers `service`. */
export function registerService(program: Command, context: CliContext): void {
  const service = program.command("service").description(
    "run the daemon at login: launchd agent (macOS) or systemd user unit (Linux)",
  );
  const where = () => {
    const env = context.io.env;
    const location = serviceLocation(Deno.build.os, homeDirectory(env), env.XDG_CONFIG_HOME);
    if (!location) {
      throw new RadarError(`Cannot manage a service on ${Deno.build.os}: launchd or systemd only`);
    }
    return location;
  };

  service.command("install").description("write the service file and print how to load it")
    .action(async () => {
      const location = await where();
      const loaded = await context.config();
      const args = [...(loaded.path ? ["--config", loaded.path] : []), "serve"];
      const command = currentRadarCommand(args);
      const spec: ServiceSpec = {
        program: command.program,
        args: command.args,
        env: {
          ...daemonEnvironment,
          RADAR_DATA_DIR: loaded.dataDir,
          PATH: context.io.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        },
        errorLog: join(loaded.dataDir, "logs", "service.err"),
      };
      const text = location.kind === "launchd" ? launchdPlist(spec) : systemdUnit(spec);
      Deno.mkdirSync(dirname(location.path), { recursive: true });
      Deno.mkdirSync(dirname(spec.errorLog), { recursive: true, mode: 0o700 });
      Deno.writeTextFileSync(location.path, text);
      context.io.stdout(`Wrote ${location.path}\nLoad it with:\n  ${location.load}\n`);
    });

  service.command("uninstall").description("remove the service file").action(async () => {
    const location = await where();
    try {
      Deno.removeSync(location.path);
    } catch {
      context.io.stdout(`No service file at ${location.path}.\n`);
      return;
    }
    context.io.stdout(
      `Removed ${location.path}\nIf it is loaded, unload it with:\n  ${location.unload}\n`,
    );
  });

  service.command("status").description("is the service installed, is the daemon running").action(
    async () => {
      const location = await where();
      const installed = isFile(location.path);
      const { dataDir } = await context.config();
      const daemon = runningDaemon(dataDir);
      context.io.stdout(
        `service: ${
          installed ? `installed (${location.path})` : "not installed (radar service install)"
        }\n` +
          `daemon:  ${daemon ? `running (PID ${daemon.pid})` : "not running"}\n`,
      );
    },
  );
}
