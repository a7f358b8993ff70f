/**
 * A model server for start-up benches: answers Ollama's `/api/chat` and `/api/show` at once and
 * tells when a chat request arrived (`performance.now()` of this process), so a bench times a
 * process from its start to its first model request.
 */

/** The running server. */
export interface FirstRequestServer {
  url: string;
  /** Resolves with the arrival time of the next `/api/chat` request. */
  nextChat(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export function firstRequestServer(): FirstRequestServer {
  let arrived = Promise.withResolvers<number>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      await request.text();
      if (path === "/api/chat") arrived.resolve(performance.now());
      if (path === "/api/show") return Response.json({ model_info: { "x.context_length": 8192 } });
      return Response.json({ message: { role: "assistant", content: "ok" }, done: true });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    nextChat() {
      arrived = Promise.withResolvers<number>();
      return arrived.promise;
    },
    close: () => server.shutdown(),
  };
}
