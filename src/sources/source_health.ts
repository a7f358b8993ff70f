/**
 * The sources' health as records (`SourceHealthRecord`, declared in `src/core/source_ports.ts`):
 * email accounts, calendars, MCP servers, custom checks, GitHub and money's statements folder,
 * from the stored checks. Both `radar status` (through `sourceHealthLines`) and the dashboard's
 * Sources card format them.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { McpServerSummary } from "../core/plugin_state.ts";
import type { Secrets } from "../core/secrets.ts";
import type { SourceHealthRecord, SourceHealthReport } from "../core/source_ports.ts";
import type { SourceStore, SourceStores } from "./source_stores.ts";
import { execSandbox } from "../adapters/os/sandbox_spec.ts";
import { calendarSourceName } from "./calendar/calendar_check.ts";
import { checkHealthRecords } from "./checks/check_status.ts";
import { emailSourceName } from "./email/email_check.ts";
import { githubHealthRecord } from "./github/github_setup.ts";
import { storedHealthRecord } from "./stored_health.ts";

/** One record per configured email account, then per calendar. */
export function mailAndCalendarHealth(
  config: RadarConfig,
  store: SourceStore,
): SourceHealthRecord[] {
  const record = (kind: "email" | "calendar", name: string, stored: string) =>
    storedHealthRecord(kind, name, store.health(stored), "checked by radar serve");
  return [
    ...config.email.accounts.map(({ name }) => record("email", name, emailSourceName(name))),
    ...config.calendar.calendars.map(({ name }) =>
      record("calendar", name, calendarSourceName(name))
    ),
  ];
}

/**
 * One record per known MCP server: approved is ok; not approved yet is disabled; a changed
 * command or changed tools need re-approval (failing: its tools are refused).
 */
export function mcpHealth(servers: McpServerSummary[]): SourceHealthRecord[] {
  return servers.map((server): SourceHealthRecord => {
    const approve = `radar mcp approve ${server.name}`;
    const base = { kind: "mcp" as const, name: server.name, failures: 0 };
    if (server.state === "pending") {
      return { ...base, state: "disabled", note: `not approved yet (${approve})` };
    }
    if (server.state === "changed") {
      return {
        ...base,
        state: "failing",
        lastError: `its command changed since approval; not started (${approve})`,
      };
    }
    const approved = { ...base, tools: server.tools, note: server.grants };
    if (server.toolChanges?.length) {
      return {
        ...approved,
        state: "failing",
        lastError: `tools changed since approval: ${server.toolChanges.join(", ")} (${approve})`,
      };
    }
    return { ...approved, state: "ok" };
  });
}

/** What the report reads. */
export interface SourceHealthDependencies {
  config: RadarConfig;
  stores: SourceStores;
  /** The known MCP servers (none when their approvals cannot be read). */
  mcpServers(): Promise<McpServerSummary[]>;
  /** Stored errors may quote a secret learned since: masked when read. */
  secrets: Secrets;
  /** Records of what keeps its health beside the sources (money's folder and categoriser). */
  more?: () => Promise<SourceHealthRecord[]>;
}

/** The sources' health over the database: every record in status order, secrets masked. */
export function sourceHealthReport(deps: SourceHealthDependencies): SourceHealthReport {
  return {
    async records(env) {
      const { config, stores } = deps;
      const sandboxProblem = config.checks.length
        ? execSandbox({ config, env }).problem
        : undefined;
      const records = [
        ...mailAndCalendarHealth(config, stores.health),
        ...mcpHealth(await deps.mcpServers()),
        ...checkHealthRecords(config, stores, sandboxProblem),
        githubHealthRecord(config, stores.health, env),
        ...await deps.more?.() ?? [],
      ];
      const { secrets } = deps;
      return records.map((record) => ({
        ...record,
        ...(record.lastError ? { lastError: secrets.mask(record.lastError) } : {}),
        ...(record.note ? { note: secrets.mask(record.note) } : {}),
      }));
    },
  };
}
