/**
 * The dashboard app: `createApp(deps)` wires middleware (security headers, Host/Origin check,
 * auth) and one route module per page. It never opens the database or reads config itself.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { WebDependencies } from "./ports.ts";
import { securityHeaders } from "./middleware/security_headers.ts";
import { originCheck } from "./middleware/origin_check.ts";
import { requireAuth } from "./middleware/auth.ts";
import { FailureThrottle } from "./middleware/throttle.ts";
import { LoginCodes } from "./login_codes.ts";
import { addStaticRoutes } from "./static_files.ts";
import { isHtmx, type PageContext, renderFragment, renderPage } from "./render.tsx";
import { Notice } from "./views/layout.tsx";
import { ChatRuns } from "./chat_runs.ts";
import { describeTimeZone } from "../src/core/zoned_time.ts";
import { loginRoutes } from "./routes/login.tsx";
import { healthRoutes } from "./routes/health.ts";
import { dashboardRoutes } from "./routes/dashboard.tsx";
import { chatRoutes } from "./routes/chat.tsx";
import { historyRoutes } from "./routes/history.tsx";
import { memoryRoutes } from "./routes/memory.tsx";
import { tasksRoutes } from "./routes/tasks.tsx";
import { pluginsRoutes } from "./routes/plugins.tsx";
import { configRoutes } from "./routes/config.tsx";
import { logsRoutes } from "./routes/logs.tsx";
import { widgetsRoutes } from "./routes/widgets.tsx";
import { evalRoutes } from "./routes/eval.tsx";
import { summariesRoutes } from "./routes/summaries.tsx";
import { personalitiesRoutes } from "./routes/personalities.tsx";
import { approvalsRoutes } from "./routes/approvals.tsx";
import { moneyRoutes } from "./routes/money.tsx";
import { firstLine } from "../src/core/errors.ts";

/** The largest request body accepted (config text is the biggest legitimate one). */
const maxBodyBytes = 1024 * 1024;

/** What a route module receives. */
export interface RouteContext extends PageContext {
  deps: WebDependencies;
  chatRuns: ChatRuns;
  loginCodes: LoginCodes;
  throttle: FailureThrottle;
  /** The zone every time on a page is shown in: `radar.timezone` now, else the machine's. */
  timeZone(): string | undefined;
}

/** How the app is served. */
export interface AppOptions {
  /** Issues the one-time login codes (the server keeps one to print links). */
  loginCodes?: LoginCodes;
  /** The server listens on loopback: answer only loopback Host names (default true). */
  loopbackHostsOnly?: boolean;
}

/** Builds the dashboard app from its dependencies. Every page needs the token (auth.ts). */
export function createApp(deps: WebDependencies, options: AppOptions = {}): Hono {
  if (!deps.authToken) throw new Error("createApp: the dashboard token is empty");
  const app = new Hono();
  const routeContext: RouteContext = {
    deps,
    loggedIn: true,
    timeZone: () => deps.config.current().config.radar.timezone || undefined,
    timesNote: () => `Times in ${describeTimeZone(deps.clock.now(), routeContext.timeZone())}`,
    databaseProblem: deps.databaseProblem,
    chatRuns: new ChatRuns(deps),
    loginCodes: options.loginCodes ?? new LoginCodes(deps.clock),
    throttle: new FailureThrottle(deps.clock),
  };
  app.use("*", securityHeaders());
  app.use(
    "*",
    originCheck({
      loopbackHostsOnly: options.loopbackHostsOnly ?? true,
      extraHosts: deps.publicUrl ? [new URL(deps.publicUrl).hostname.toLowerCase()] : [],
    }),
  );
  app.use("*", requireAuth({ authToken: deps.authToken, throttle: routeContext.throttle }));
  app.use(
    "*",
    bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.text("Request too large.", 413) }),
  );
  addStaticRoutes(app);
  for (
    const routes of [
      healthRoutes,
      loginRoutes,
      dashboardRoutes,
      chatRoutes,
      historyRoutes,
      memoryRoutes,
      tasksRoutes,
      pluginsRoutes,
      configRoutes,
      logsRoutes,
      widgetsRoutes,
      evalRoutes,
      summariesRoutes,
      personalitiesRoutes,
      approvalsRoutes,
      moneyRoutes,
    ]
  ) app.route("/", routes(routeContext));
  app.notFound((c) =>
    renderPage(c, routeContext, { title: "Not found", status: 404 }, <Notice>Nothing here.</Notice>)
  );
  app.onError((error, c) => {
    const message = firstLine(error);
    deps.logger.error("dashboard request failed", { path: c.req.path, error: message });
    if (isHtmx(c)) return renderFragment(c, <Notice kind="error">{message}</Notice>, 500);
    return renderPage(
      c,
      routeContext,
      { title: "Something went wrong", status: 500 },
      <Notice kind="error">{message}</Notice>,
    );
  });
  return app;
}
