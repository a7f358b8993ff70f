/**
 * The dashboard as `radar serve` runs it: `startWebServer` on the daemon's runtime with the real
 * views attached (daemon state and tasks, plugins and reviews, the log file and the tool audit
 * trail) and saved config applied live where the running process allows it.
 */
import type { DaemonWebOptions } from "../src/daemon/daemon.ts";
import { logPath } from "../src/daemon/log_file.ts";
import { applyLiveConfig } from "../src/runtime/live_config.ts";
import { monitorControls } from "./monitor_controls.ts";
import { daemonViewFromServices } from "./daemon_view.ts";
import { logsViewFromFiles } from "./logs_view.ts";
import { pluginsViewFromApi } from "./plugin_api_view.ts";
import { type RunningWebServer, startWebServer } from "./server.ts";

/** Starts the daemon's dashboard (runDaemon's `startWeb`). */
export function startDaemonWebServer(options: DaemonWebOptions): RunningWebServer {
  const { runtime, services } = options;
  return startWebServer({
    runtime,
    host: options.host,
    port: options.port,
    signal: options.signal,
    daemon: daemonViewFromServices({
      services,
      startedAt: options.startedAt,
      signal: options.signal,
      monitors: monitorControls(services),
    }),
    plugins: runtime.plugins ? pluginsViewFromApi(runtime.plugins.api) : undefined,
    logs: logsViewFromFiles({ logPath: logPath(runtime.dataDir), toolCalls: runtime.toolCalls }),
    applyConfig: (loaded) => applyLiveConfig(runtime.config, loaded.config),
  });
}
