/**
 * `/summaries`: the daily and weekly digests, newest first, ten per page (at most 50 pages back:
 * the store lists from the newest), and a word search over them (`?q=`, the store's FTS search,
 * best 30).
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { renderPage } from "../render.tsx";
import { Unavailable } from "../views/layout.tsx";
import { DigestList, type SummariesQuery } from "../views/summaries.tsx";

/** Digests per page. */
const summariesPageSize = 10;
/** The deepest page served (the store reads every newer digest to reach it). */
const summariesMaxPage = 50;
/** Search results shown. */
const summariesSearchLimit = 30;

function readQuery(c: Context): SummariesQuery {
  const page = Number(c.req.query("page") ?? "1");
  return {
    search: (c.req.query("q") ?? "").trim().slice(0, 200),
    page: Number.isInteger(page) && page > 0 ? Math.min(page, summariesMaxPage) : 1,
  };
}

const page = { title: "Summaries", active: "/summaries" };
const digestsMissing = (
  <Unavailable what="Digests not available." hint="The digest store is not attached." />
);

/** Summaries routes. */
export function summariesRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  app.get("/summaries", async (c) => {
    const query = readQuery(c);
    const digests = deps.digests;
    if (!digests) return renderPage(c, context, page, digestsMissing);
    let rows;
    let hasNext = false;
    if (query.search) {
      rows = await digests.search(query.search, summariesSearchLimit);
    } else {
      const skip = (query.page - 1) * summariesPageSize;
      const read = await digests.list(skip + summariesPageSize + 1);
      rows = read.slice(skip, skip + summariesPageSize);
      hasNext = read.length > skip + summariesPageSize && query.page < summariesMaxPage;
    }
    return renderPage(
      c,
      context,
      page,
      <>
        <form class="row filters" method="get" action="/summaries" role="search">
          <input
            type="search"
            name="q"
            value={query.search}
            placeholder="Search the digests"
            aria-label="Search the digests"
            maxlength={200}
          />
          <button type="submit">Search</button>
          {query.search ? <a href="/summaries">All digests</a> : null}
        </form>
        <div id="summaries">
          <DigestList
            query={query}
            digests={rows}
            hasNext={hasNext}
            timeZone={context.timeZone()}
          />
        </div>
      </>,
    );
  });
  return app;
}
