/** Starts the dashboard HTTP server (`radar serve` calls this; tests call it directly). */
import type { Hono } from "hono";
import type { Runtime } from "../src/runtime/runtime.ts";
import { ExitCode, RadarError } from "../src/core/errors.ts";
import { createApp } from "./app.tsx";
import { checkBindAddress } from "./bind_policy.ts";
import type { WebDependencies } from "./ports.ts";
import { webDependenciesFromRuntime, type WebExtras } from "./runtime_dependencies.ts";

/** Options of the web server. */
export interface WebServerOptions extends WebExtras {
  runtime: Runtime;
  host: string;
  port: number;
  signal?: AbortSignal;
}

/** A running web server. */
export interface RunningWebServer {
  port: number;
  /** The address to open in a browser. */
  url: string;
  close(): Promise<void>;
}

/** Serves an app on host:port until closed or aborted. */
export function serveApp(
  app: Hono,
  options: { host: string; port: number; signal?: AbortSignal },
): RunningWebServer {
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: options.host,
      port: options.port,
      signal: options.signal,
      onListen: () => {},
    }, app.fetch);
  } catch (error) {
    const where = `${options.host}:${options.port}`;
    if (error instanceof Deno.errors.AddrInUse) {
      throw new RadarError(
        `Cannot serve the dashboard on ${where}: the port is in use (another radar serve, or ` +
          `another program). Choose one with --port or web.port.`,
        ExitCode.failure,
        { cause: error },
      );
    }
    if (
      error instanceof Deno.errors.AddrNotAvailable || error instanceof Deno.errors.PermissionDenied
    ) {
      throw new RadarError(
        `Cannot serve the dashboard on ${where}: ${error.message}`,
        ExitCode.failure,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  const port = server.addr.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    port,
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${port}/`,
    close: () => server.shutdown(),
  };
}

/**
 * Checks the bind policy (non-loopback needs a token; throws ConfigError otherwise), builds
 * the app from the runtime plus the optional daemon/plugins/logs views and serves it.
 */
export function startWebServer(options: WebServerOptions): RunningWebServer {
  return startWebServerWith(webDependenciesFromRuntime(options.runtime, options), options);
}

/**
 * Like startWebServer, from explicit dependencies (tests with fakes, other composition). The
 * one place the bind policy is checked, before anything listens.
 */
export function startWebServerWith(
  deps: WebDependencies,
  options: { host: string; port: number; signal?: AbortSignal },
): RunningWebServer {
  checkBindAddress(options.host, deps.authToken);
  return serveApp(createApp(deps), options);
}
