/**
 * A real HTTP server on 127.0.0.1 (a free port) that records every request it receives: as an
 * attacker's sink, the test asserts it received nothing; as a web page, it answers `pages[path]`
 * (plain text) and records the reads too; a path in `redirects` is an open redirect (302 to the
 * request's `to` parameter), as many real sites have.
 */

/** One request the server received. */
export interface SinkRequest {
  method: string;
  /** Path and query, as sent. */
  target: string;
  body: string;
}

/** A running recording server. */
export interface SinkServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  port: number;
  requests: SinkRequest[];
  /** Plain-text answers by path (others: "ok"). */
  pages: Record<string, string>;
  /** Paths that redirect to their `to` parameter. */
  redirects: Set<string>;
  close(): Promise<void>;
}

/** Starts a recording server. */
export function startSink(pages: Record<string, string> = {}): SinkServer {
  const requests: SinkRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    requests.push({
      method: request.method,
      target: `${url.pathname}${url.search}`,
      body: await request.text(),
    });
    const to = url.searchParams.get("to");
    if (sink.redirects.has(url.pathname) && to) {
      return new Response(null, { status: 302, headers: { location: to } });
    }
    const page = sink.pages[url.pathname];
    return new Response(page ?? "ok", {
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  });
  const sink: SinkServer = {
    origin: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    requests,
    pages,
    redirects: new Set(),
    close: () => server.shutdown(),
  };
  return sink;
}
