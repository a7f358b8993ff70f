/**
 * The dashboard's dependencies from the open Radar: its stores, model and agent loop, and when
 * `radar serve` runs it, the daemon view (tasks, monitors, heartbeats), the plugin API, the log
 * file with the tool audit trail, and saved config applied live where the process allows it.
 */
import type { Radar } from "../src/runtime/open_radar.ts";
import { logPath } from "../src/daemon/log_file.ts";
import { fileConfigFile } from "./config_file.ts";
import { dashboardToken } from "./dashboard_token.ts";
import { daemonView } from "./daemon_view.ts";
import { logsViewFromFiles } from "./logs_view.ts";
import type { WebDependencies } from "./ports.ts";

/** Where the dashboard runs. */
export interface WebExtras {
  /** Set under `radar serve`: when the daemon started, and its shutdown signal. */
  daemon?: { startedAt: Date; signal?: AbortSignal };
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The daemon's database guard (default: the damage marker, read on every page). */
  databaseProblem?: () => string | undefined;
}

/**
 * The dashboard's ports over the open Radar (the agent stack, the personalities and, under
 * `radar serve`, the plugins loaded first: the server asks on its first request).
 */
export async function webDependenciesFromRuntime(
  radar: Radar,
  extras: WebExtras = {},
): Promise<WebDependencies> {
  const serving = extras.daemon;
  const stack = await radar.agentStack();
  const plugins = serving ? await radar.plugins() : undefined;
  return {
    conversations: radar.conversations,
    facts: radar.facts,
    memory: stack.memory,
    config: fileConfigFile({
      loaded: radar.loaded,
      env: extras.env ?? Deno.env.toObject(),
      cwd: extras.cwd ?? Deno.cwd(),
      apply: serving ? (loaded) => radar.applyLiveConfig(loaded.config) : undefined,
    }),
    agent: () => stack.agent(),
    model: radar.model,
    clock: radar.clock,
    logger: radar.logger,
    authToken: dashboardToken(radar.dataDir, radar.config.web.auth_token),
    daemon: serving ? daemonView({ radar, ...serving }) : undefined,
    plugins: plugins?.api,
    widgets: plugins?.widgets,
    logs: serving
      ? logsViewFromFiles({ logPath: logPath(radar.dataDir), toolCalls: radar.toolCalls })
      : undefined,
    toolOutcomes: (conversationId) => radar.toolCalls.outcomesOf(conversationId),
    toolCount: () => stack.registry.list().length,
    skills: () => radar.skillCatalog.discover().skills,
    mcpServers: () => radar.mcp.servers(),
    evalRuns: await radar.evalRuns(),
    digests: radar.digests,
    sourceHealth: () => radar.sourceHealth.records(extras.env ?? Deno.env.toObject()),
    channels: () => radar.channels.status(),
    databaseProblem: extras.databaseProblem ?? (() => radar.database.problem()),
    personalities: await radar.personalities(),
    away: { ...radar.away, home: (extras.env ?? Deno.env.toObject()).HOME ?? "" },
    publicUrl: radar.config.web.public_url || undefined,
    money: radar.money,
    setAside: {
      summary: (limit) => {
        const setAside = radar.queue.setAside();
        // Most home pages have none: no second query then.
        return { ...setAside, events: setAside.count ? radar.queue.setAsideEvents(limit) : [] };
      },
      requeue: () => radar.queue.requeueSetAside(),
    },
  };
}
