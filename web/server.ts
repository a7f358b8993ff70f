/** Starts the dashboard HTTP server (`radar serve` calls this; tests call it directly). */
import type { Hono } from "hono";
import type { Radar } from "../src/runtime/open_radar.ts";
import type { DaemonWebOptions } from "../src/daemon/daemon.ts";
import { ExitCode, RadarError } from "../src/core/errors.ts";
import { isLoopbackHost } from "../src/adapters/network/address_policy.ts";
import { checkBindAddress } from "./bind_policy.ts";
import { LoginCodes } from "./login_codes.ts";
import type { WebDependencies } from "./ports.ts";
import type { WebExtras } from "./runtime_dependencies.ts";
import { dashboardToken } from "./dashboard_token.ts";

/** Options of the web server. */
export interface WebServerOptions extends WebExtras {
  runtime: Radar;
  host: string;
  port: number;
  signal?: AbortSignal;
}

/** A running web server. */
export interface RunningWebServer {
  port: number;
  /** The address of the dashboard (a browser still needs to log in). */
  url: string;
  /** A fresh one-time login link (works once, for five minutes). */
  loginLink(): string;
  close(): Promise<void>;
}

/** What answers a request: a Hono app's `fetch`, or a function that builds the app first. */
export type RequestHandler = (
  request: Request,
  info: Deno.ServeHandlerInfo,
) => Promise<Response> | Response;

/** Serves a handler (e.g. `app.fetch`) on host:port until closed or aborted. */
export function serveApp(
  handler: RequestHandler,
  options: { host: string; port: number; signal?: AbortSignal; loginCodes?: LoginCodes },
): RunningWebServer {
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: options.host,
      port: options.port,
      signal: options.signal,
      onListen: () => {},
    }, handler);
  } catch (error) {
    const reason = error instanceof Deno.errors.AddrInUse
      ? `the port is in use (another radar serve, or another program). Choose one with --port ` +
        `or web.port.`
      : error instanceof Deno.errors.AddrNotAvailable ||
          error instanceof Deno.errors.PermissionDenied
      ? error.message
      : undefined;
    if (reason === undefined) throw error;
    throw new RadarError(
      `Cannot serve the dashboard on ${options.host}:${options.port}: ${reason}`,
      ExitCode.failure,
      { cause: error },
    );
  }
  const port = server.addr.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${port}/`;
  return {
    port,
    url,
    loginLink: () => {
      if (!options.loginCodes) throw new Error("serveApp: no login codes");
      return `${url}login?code=${encodeURIComponent(options.loginCodes.issue())}`;
    },
    close: () => server.shutdown(),
  };
}

/**
 * Checks the bind policy (non-loopback needs a configured token; throws ConfigError otherwise)
 * and serves the app built from the runtime plus the optional daemon/plugins/logs views. Both
 * the app and its dependencies (the agent stack among them) are built on the first request.
 */
export function startWebServer(options: WebServerOptions): RunningWebServer {
  const { runtime } = options;
  const configured = runtime.config.web.auth_token;
  checkBindAddress(options.host, configured);
  return serveDashboard(
    {
      authToken: dashboardToken(runtime.dataDir, configured),
      clock: runtime.clock,
      // The dashboard's views over the runtime load with the app (runtime_dependencies.ts).
      build: async () =>
        (await runtimeDependenciesModule()).webDependenciesFromRuntime(runtime, options),
    },
    { ...options, configuredToken: configured },
  );
}

/** Starts the daemon's dashboard (runDaemon's `startWeb`) with the daemon, plugin and log views. */
export function startDaemonWebServer(options: DaemonWebOptions): RunningWebServer {
  return startWebServer({
    runtime: options.radar,
    host: options.host,
    port: options.port,
    signal: options.signal,
    daemon: { startedAt: options.startedAt, signal: options.signal },
    databaseProblem: options.databaseProblem,
  });
}

/**
 * Like startWebServer, from explicit dependencies (tests with fakes, other composition). The
 * bind policy is checked before anything listens, against `configuredToken` (a token the user
 * chose; default deps.authToken). The app (hono, markdown-it, every page) is imported and built
 * on the first request: a daemon nobody opens the dashboard of does not hold it in memory.
 */
export function startWebServerWith(
  deps: WebDependencies,
  options: { host: string; port: number; signal?: AbortSignal; configuredToken?: string },
): RunningWebServer {
  return serveDashboard(
    { authToken: deps.authToken, clock: deps.clock, build: () => Promise.resolve(deps) },
    options,
  );
}

/** What the server needs before the first request; the rest (`build`) comes with the app. */
interface DashboardStart {
  authToken: string;
  clock: WebDependencies["clock"];
  build(): Promise<WebDependencies>;
}

/** Checks the bind policy and the token, then serves the app built on the first request. */
function serveDashboard(
  start: DashboardStart,
  options: { host: string; port: number; signal?: AbortSignal; configuredToken?: string },
): RunningWebServer {
  checkBindAddress(options.host, options.configuredToken ?? start.authToken);
  if (!start.authToken) throw new Error("startWebServerWith: the dashboard token is empty");
  const loginCodes = new LoginCodes(start.clock);
  let app: Promise<Hono> | undefined;
  const built = () =>
    app ??= Promise.all([
      appModule(),
      start.build(),
    ]).then(([{ createApp }, deps]) =>
      createApp(deps, { loginCodes, loopbackHostsOnly: isLoopbackHost(options.host) })
    );
  return serveApp(
    async (request, info) => (await built()).fetch(request, info),
    { ...options, loginCodes },
  );
}

/** The dashboard's views over the runtime, loaded with the app. */
function runtimeDependenciesModule(): Promise<typeof import("./runtime_dependencies.ts")> {
  return import(new URL("./runtime_dependencies.ts", import.meta.url).href);
}

/** The dashboard's app, loaded by the first request. */
function appModule(): Promise<typeof import("./app.tsx")> {
  return import(new URL("./app.tsx", import.meta.url).href);
}
