/** The conversation table of /history with its pagination links. */
import type { ConversationSummary } from "../../src/core/ports.ts";
import type { ConversationKind } from "../../src/core/tool.ts";
import { formatTime } from "./format.ts";
import { Table } from "./table.tsx";

/** The filters and page of a history listing. */
export interface HistoryQuery {
  kind?: ConversationKind;
  search: string;
  page: number;
}

function pageHref(query: HistoryQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.search) params.set("q", query.search);
  if (query.kind) params.set("kind", query.kind);
  params.set("page", String(page));
  return `/history?${params}`;
}

/** A page of conversations; `total` is shown when known (unfiltered by search). */
export function ConversationList(
  props: {
    query: HistoryQuery;
    rows: ConversationSummary[];
    hasNext: boolean;
    total?: number;
    timeZone: string | undefined;
  },
) {
  const { query, rows } = props;
  if (!rows.length) {
    return (
      <p class="muted">
        {query.search || query.kind ? "No conversation matches." : "No conversations yet."}
      </p>
    );
  }
  return (
    <>
      <Table class="list" columns={["#", "title", "kind", "messages", "updated"]}>
        {rows.map((row) => (
          <tr>
            <td class="muted">{row.id}</td>
            <td>
              <a href={`/history/${row.id}`}>{row.title || "(untitled)"}</a>
            </td>
            <td>
              <span class={`badge kind-${row.kind}`}>{row.kind}</span>
              {row.interruptedAt
                ? (
                  <span
                    class="badge outcome-error"
                    title="the run was stopped before it finished"
                  >
                    interrupted
                  </span>
                )
                : null}
            </td>
            <td>{row.messageCount}</td>
            <td class="muted">{formatTime(row.updatedAt, props.timeZone)}</td>
          </tr>
        ))}
      </Table>
      <nav class="pagination row">
        {query.page > 1 ? <a href={pageHref(query, query.page - 1)} rel="prev">← newer</a> : null}
        <span class="muted">
          page {query.page}
          {props.total !== undefined
            ? ` of ${Math.max(1, Math.ceil(props.total / 25))} (${props.total} conversations)`
            : ""}
        </span>
        {props.hasNext ? <a href={pageHref(query, query.page + 1)} rel="next">older →</a> : null}
      </nav>
    </>
  );
}
