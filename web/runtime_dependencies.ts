/** Builds the dashboard's dependencies from an open Runtime (the composition root's view). */
import { SqliteMcpApprovals } from "../src/adapters/sqlite/mcp_approvals.ts";
import { mcpServerViews } from "../src/mcp/mcp_views.ts";
import type { Runtime } from "../src/runtime/runtime.ts";
import { fileConfigFile } from "./config_file.ts";
import { dashboardToken } from "./dashboard_token.ts";
import type { DaemonView, LogsView, PluginsView, WebDependencies } from "./ports.ts";

/** Optional views other concerns attach (daemon, plugins, logs) and the config apply hook. */
export interface WebExtras {
  daemon?: DaemonView;
  plugins?: PluginsView;
  logs?: LogsView;
  env?: Record<string, string | undefined>;
  cwd?: string;
  applyConfig?: Parameters<typeof fileConfigFile>[0]["apply"];
}

/** The dashboard's ports, backed by the runtime's stores, model and agent loop. */
export function webDependenciesFromRuntime(
  runtime: Runtime,
  extras: WebExtras = {},
): WebDependencies {
  return {
    conversations: runtime.conversations,
    facts: runtime.facts,
    config: fileConfigFile({
      loaded: runtime.loaded,
      env: extras.env ?? Deno.env.toObject(),
      cwd: extras.cwd ?? Deno.cwd(),
      apply: extras.applyConfig,
    }),
    agent: () => runtime.agent(),
    model: runtime.model,
    clock: runtime.clock,
    logger: runtime.logger,
    authToken: dashboardToken(runtime.dataDir, runtime.config.web.auth_token),
    daemon: extras.daemon,
    plugins: extras.plugins,
    logs: extras.logs,
    toolOutcomes: (conversationId) => runtime.toolCalls.outcomesOf(conversationId),
    toolCount: () => runtime.registry.list().length,
    skills: () =>
      runtime.skillCatalog.discover().skills.map(({ name, description, source, missing }) => ({
        name,
        description,
        source,
        missing,
      })),
    mcpServers: () => mcpServerViews(runtime.config, new SqliteMcpApprovals(runtime.db)),
  };
}
