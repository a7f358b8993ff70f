/** `/logs`: the tail of the agent log and the tool audit trail, filterable. */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { renderFragment, renderPage } from "../render.tsx";
import { Unavailable } from "../views/layout.tsx";
import { FilterForm } from "../views/filter_form.tsx";
import { formatDuration, formatTime, truncate } from "../views/format.ts";
import type { ToolCallRecord } from "../../src/core/ports.ts";
import { Table } from "../views/table.tsx";

function AuditTable(props: { rows: ToolCallRecord[]; timeZone: string | undefined }) {
  if (!props.rows.length) return <p class="muted">No tool calls recorded.</p>;
  return (
    <Table class="list audit" columns={["when", "tool", "outcome", "took", "arguments → result"]}>
      {props.rows.map((row) => (
        <tr class={`outcome-${row.outcome}`}>
          <td class="muted">{formatTime(row.at, props.timeZone)}</td>
          <td>
            <code>{row.tool}</code>
            {row.conversationId
              ? <a href={`/history/${row.conversationId}`}>#{row.conversationId}</a>
              : null}
          </td>
          <td>
            <span class={`badge outcome-${row.outcome}`}>{row.outcome}</span>
          </td>
          <td>{formatDuration(row.durationMs)}</td>
          <td>
            <details>
              <summary>
                <code>{truncate(row.arguments, 80)}</code>
              </summary>
              <pre>{row.arguments}</pre>
              <pre>{row.result}</pre>
            </details>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** Logs routes. */
export function logsRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  async function body(filter: string, tool: string, failedOnly: boolean) {
    const logs = deps.logs;
    if (!logs) {
      return (
        <Unavailable
          what="Logs not available."
          hint="The agent log and audit trail are attached by `radar serve`."
        />
      );
    }
    const [lines, rows] = await Promise.all([
      logs.agentLog({ lines: 200, filter: filter || undefined }),
      logs.toolAudit({ limit: 100, tool: tool || undefined, failedOnly }),
    ]);
    return (
      <>
        <section>
          <h2>Agent log (last {lines.length} lines{filter ? ` containing “${filter}”` : ""})</h2>
          <pre class="log scroll" data-scroll-end>{lines.join("\n") || "(empty)"}</pre>
        </section>
        <section>
          <h2>Tool audit trail</h2>
          <AuditTable rows={rows} timeZone={context.timeZone()} />
        </section>
      </>
    );
  }

  app.get("/logs", async (c) => {
    const filter = (c.req.query("filter") ?? "").slice(0, 200);
    const tool = (c.req.query("tool") ?? "").slice(0, 100);
    const failedOnly = c.req.query("failed") === "1";
    return renderPage(
      c,
      context,
      { title: "Logs", active: "/logs" },
      <>
        <FilterForm
          action="/logs"
          list="/logs/entries"
          target="#log-entries"
          changeOn="input[type=checkbox]"
        >
          <input
            type="search"
            name="filter"
            value={filter}
            placeholder="Filter log lines"
            aria-label="Filter log lines"
          />
          <input
            type="search"
            name="tool"
            value={tool}
            placeholder="Tool name"
            aria-label="Tool name"
          />
          <label>
            <input type="checkbox" name="failed" value="1" checked={failedOnly} />{" "}
            failed or refused only
          </label>
          <button type="submit" class="secondary">Filter</button>
        </FilterForm>
        <div id="log-entries">{await body(filter, tool, failedOnly)}</div>
      </>,
    );
  });

  app.get("/logs/entries", async (c) => {
    const filter = (c.req.query("filter") ?? "").slice(0, 200);
    const tool = (c.req.query("tool") ?? "").slice(0, 100);
    return renderFragment(c, await body(filter, tool, c.req.query("failed") === "1"));
  });
  return app;
}
