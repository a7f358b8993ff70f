/** A local HTTP server standing in for ntfy: records every request and answers like ntfy. */

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A running fake ntfy server on 127.0.0.1. */
export interface FakeNtfyServer {
  url: string;
  requests: RecordedRequest[];
  /** The status to answer with next (default 200). */
  status: number;
  close(): Promise<void>;
}

/** Starts the fake on a free port; `close` stops it. */
export function startFakeNtfy(): FakeNtfyServer {
  const fake: FakeNtfyServer = {
    url: "",
    requests: [],
    status: 200,
    close: () => server.shutdown(),
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    fake.requests.push({
      method: request.method,
      path: url.pathname,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    if (fake.status !== 200) {
      return Response.json({ code: 40301, http: fake.status, error: "forbidden" }, {
        status: fake.status,
      });
    }
    return Response.json({ id: "abc", event: "message", topic: url.pathname.slice(1) });
  });
  fake.url = `http://127.0.0.1:${server.addr.port}`;
  return fake;
}
