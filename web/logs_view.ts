/**
 * The dashboard's `LogsView` over the daemon's rotating log file (`<data>/logs/radar.log`) and
 * the tool audit trail (`tool_calls`, secrets already redacted when recorded).
 */
import { lastLines } from "../src/daemon/log_file.ts";
import type { AuditTrail } from "../src/core/ports.ts";
import type { LogsView } from "./ports.ts";

/** How many lines of the file a filter looks through for its matches. */
const filterWindowLines = 5000;

/** What the logs view reads. */
export interface LogsViewOptions {
  /** The daemon's log file. */
  logPath: string;
  toolCalls: Pick<AuditTrail, "list">;
}

function readTail(path: string, lines: number): string[] {
  try {
    return lastLines(path, lines);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** The logs view over a log file and an audit store. */
export function logsViewFromFiles(options: LogsViewOptions): LogsView {
  return {
    agentLog({ lines, filter }) {
      if (!filter) return readTail(options.logPath, lines);
      const needle = filter.toLowerCase();
      return readTail(options.logPath, filterWindowLines)
        .filter((line) => line.toLowerCase().includes(needle))
        .slice(-lines);
    },
    toolAudit: ({ limit, tool, failedOnly }) =>
      options.toolCalls.list({ limit, tool, failed: failedOnly }),
  };
}
