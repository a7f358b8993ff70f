/**
 * The digests of /summaries: one card per digest with its period and the body as Markdown
 * (raw HTML off, see markdown.tsx: a digest is model output over untrusted material).
 */
import type { Digest } from "../../src/core/source_ports.ts";
import { Markdown } from "./markdown.tsx";
import { formatTime } from "./format.ts";

/** A listing's search words and page (1-based; search results have one page). */
export interface SummariesQuery {
  search: string;
  page: number;
}

function pageHref(page: number): string {
  return `/summaries?page=${page}`;
}

/** One digest as a card, its period and writing time in `timeZone` with the offset. */
function DigestCard(props: { digest: Digest; timeZone: string | undefined }) {
  const { digest, timeZone } = props;
  return (
    <article class="card digest" id={`digest-${digest.id}`}>
      <h2>
        {digest.period === "day" ? "Daily digest" : "Weekly digest"}{" "}
        <span class="muted">
          {formatTime(digest.startsAt, timeZone)} –{" "}
          {formatTime(digest.endsAt, timeZone, { zone: true })}
        </span>
      </h2>
      <Markdown text={digest.content} />
      <p class="muted">written {formatTime(digest.createdAt, timeZone, { zone: true })}</p>
    </article>
  );
}

/** A page of digests (newest first) or the search results, with older/newer links. */
export function DigestList(
  props: {
    query: SummariesQuery;
    digests: Digest[];
    hasNext: boolean;
    timeZone: string | undefined;
  },
) {
  const { query, digests } = props;
  if (!digests.length) {
    return (
      <p class="muted">
        {query.search
          ? "No digest matches."
          : "No digests yet. Turn on digests.daily or digests.weekly in the config, or run " +
            "`radar digest now`."}
      </p>
    );
  }
  return (
    <>
      {query.search
        ? <h2>{digests.length} match{digests.length === 1 ? "" : "es"} for “{query.search}”</h2>
        : null}
      {digests.map((digest) => <DigestCard digest={digest} timeZone={props.timeZone} />)}
      {query.search ? null : (
        <nav class="pagination row">
          {query.page > 1 ? <a href={pageHref(query.page - 1)} rel="prev">← newer</a> : null}
          <span class="muted">page {query.page}</span>
          {props.hasNext ? <a href={pageHref(query.page + 1)} rel="next">older →</a> : null}
        </nav>
      )}
    </>
  );
}
