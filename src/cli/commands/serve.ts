/** `radar serve`: the daemon in the foreground until Ctrl-C or SIGTERM. */
import { logPath, RotatingLogFile } from "../../daemon/log_file.ts";
import { runDaemon } from "../../daemon/daemon.ts";
import { daemonSources, pluginSources } from "../../daemon/watchers.ts";
import { skillSources } from "../../daemon/skill_watchers.ts";
import { databaseGuard } from "../../daemon/database_guard.ts";
import { watchConfigFile } from "../../daemon/config_watch.ts";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { parsePort } from "../arguments.ts";
import { everyMinute } from "../../adapters/cron.ts";
import { ensureDataDirectory } from "../../runtime/data_directory.ts";
import { readRememberedConfig } from "../../config/remembered_config.ts";
import { readTextFileIfExists } from "../../config/config_file.ts";

/**
 * `kill -USR2 PID` runs a heartbeat now. Not SIGUSR1: since 2.9.2 Deno answers SIGUSR1 by
 * opening a V8 inspector on 127.0.0.1:9229, whatever listeners the program has.
 */
const heartbeatSignal: Deno.Signal = "SIGUSR2";

/** Registers `serve`. */
export function registerServe(program: Command, context: CliContext): void {
  program.command("serve")
    .description("run the heartbeat, watchers, monitors, tasks and dashboard until Ctrl-C")
    .option("--host <host>", "dashboard address (default: web.host, 127.0.0.1)")
    .option(
      "--port <port>",
      "dashboard port, 0 = any free port (default: web.port, 8420)",
      parsePort,
    )
    .action(async (options: { host?: string; port?: number }) => {
      // Read as openRadar reads it: an unchanged config loads no schema (the config watcher
      // loads the loader with the file's first change). Otherwise a child validates and
      // remembers it, so the daemon never holds the schema (src/daemon/config_check.ts).
      const configOptions = {
        explicitPath: context.globals().config,
        env: context.io.env,
        cwd: context.io.cwd,
        readTextFile: readTextFileIfExists,
      };
      const loaded = readRememberedConfig(configOptions) ??
        await (await configCheckModule()).checkedConfig(configOptions);
      const host = options.host ?? loaded.config.web.host;
      const port = options.port ?? loaded.config.web.port;
      // The bind policy (non-loopback needs web.auth_token) is checked by the web server.
      ensureDataDirectory(loaded.dataDir);
      const log = new RotatingLogFile(logPath(loaded.dataDir));
      const shutdown = new AbortController();
      const stop = () => shutdown.abort();
      const signals: Deno.Signal[] = Deno.build.os === "windows"
        ? ["SIGINT"]
        : ["SIGINT", "SIGTERM"];
      for (const signal of signals) Deno.addSignalListener(signal, stop);
      let manualTick: (() => void) | undefined;
      try {
        // A database known to be damaged is opened read-only: the dashboard says so.
        const radar = await context.radar({
          loaded,
          logWriters: [(line) => log.write(line)],
          openDamaged: true,
        });
        const guard = databaseGuard(radar);
        // Loaded at run time: the dashboard (hono, markdown-it) is not loaded by other commands.
        const { startDaemonWebServer }: typeof import("../../../web/server.ts") = await import(
          new URL("../../../web/server.ts", import.meta.url).href
        );
        // IMAP IDLE (imapflow) is imported only when an account uses it.
        const { email } = radar.config;
        const mailIdle = email.idle && email.accounts.length
          ? await (await mailIdleSetupModule()).mailIdleSources(
            radar,
            context.io.env,
          )
          : [];
        // The chat channels (grammY, matrix-js-sdk, nodemailer) only when one is configured.
        const channels = radar.channels.configured()
          ? [
            (await channelRuntimeSetupModule()).channelRuntime(
              radar,
              {
                env: context.io.env,
              },
            ),
          ]
          : [];
        const configWatch = watchConfigFile(radar, { env: context.io.env, cwd: context.io.cwd });
        let web: ReturnType<typeof startDaemonWebServer> | undefined;
        await runDaemon({
          radar,
          host,
          port,
          shutdown: shutdown.signal,
          startWeb: (webOptions) => (web = startDaemonWebServer(webOptions)),
          ticker: (handler, signal) => everyMinute("radar-tick", handler, signal),
          jobs: [...await radar.tickJobs(), configWatch],
          sources: [
            guard,
            // What writes stops when the database is found damaged.
            ...guard.gate([
              ...daemonSources(radar),
              ...pluginSources(radar),
              ...mailIdle,
              ...channels,
            ]),
            ...skillSources(radar),
            configWatch,
          ],
          paused: guard.problem,
          onReady: (url, scheduler) => {
            // Listening before saying so: a `kill -USR2` right after the line must not end Radar.
            if (Deno.build.os !== "windows") {
              manualTick = () => void scheduler.tick({ manualHeartbeat: true });
              Deno.addSignalListener(heartbeatSignal, manualTick);
            }
            context.io.stderr(
              `Radar is running at ${url} (PID ${radar.process.pid}); Ctrl-C stops it.\n` +
                `Log in to the dashboard (this link works once, for 5 minutes; ` +
                `\`radar dashboard\` makes a new one):\n  ${web?.loginLink()}\n`,
            );
          },
        });
      } finally {
        for (const signal of signals) Deno.removeSignalListener(signal, stop);
        if (manualTick) Deno.removeSignalListener(heartbeatSignal, manualTick);
        log.close();
      }
    });
}

/** The config check (and its schema), loaded when nothing is remembered. */
function configCheckModule(): Promise<typeof import("../../daemon/config_check.ts")> {
  return import(new URL("../../daemon/config_check.ts", import.meta.url).href);
}

/** The mail IDLE watchers' module, loaded when IDLE is on with an account. */
function mailIdleSetupModule(): Promise<typeof import("../../sources/email/mail_idle_setup.ts")> {
  return import(new URL("../../sources/email/mail_idle_setup.ts", import.meta.url).href);
}

/** The chat channels' runtime, loaded when a channel is configured. */
function channelRuntimeSetupModule(): Promise<
  typeof import("../../runtime/channel_runtime_setup.ts")
> {
  return import(new URL("../../runtime/channel_runtime_setup.ts", import.meta.url).href);
}
