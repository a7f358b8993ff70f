/** Starts the dashboard HTTP server. (Minimal until the dashboard lands: /health only.) */
import { Hono } from "hono";
import type { Runtime } from "../src/runtime/runtime.ts";

/** Options of the web server. */
export interface WebServerOptions {
  runtime: Runtime;
  host: string;
  port: number;
  signal?: AbortSignal;
}

/** A running web server. */
export interface RunningWebServer {
  port: number;
  close(): Promise<void>;
}

/** Serves the dashboard until closed. */
export function startWebServer(options: WebServerOptions): RunningWebServer {
  const app = new Hono();
  app.get("/health", (c) => c.json({ ok: true }));
  const server = Deno.serve({
    hostname: options.host,
    port: options.port,
    signal: options.signal,
    onListen: () => {},
  }, app.fetch);
  return { port: server.addr.port, close: () => server.shutdown() };
}
