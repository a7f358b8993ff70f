/** `GET /health`: JSON liveness for service managers (open without login). */
import { Hono } from "hono";
import { radarVersion } from "../../src/version.ts";
import type { RouteContext } from "../app.tsx";

/** Health routes. */
export function healthRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get("/health", (c) =>
    c.json({
      ok: true,
      version: radarVersion,
      daemon: context.deps.daemon ? "attached" : "absent",
    }));
  return app;
}
