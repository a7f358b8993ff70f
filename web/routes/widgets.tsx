/**
 * `GET /fragments/widgets/:plugin`: one plugin widget's body (htmx fragment), or a one-line
 * notice. The plugin's answer is cached and bounded by `PluginWidgets`; this route only renders.
 */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { renderFragment, warningFragment } from "../render.tsx";
import { WidgetBody } from "../views/widgets.tsx";

/** Widget fragment routes. */
export function widgetsRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get("/fragments/widgets/:plugin{[a-z][a-z0-9_]{0,47}}", async (c) => {
    const outcome = await context.deps.widgets?.render(c.req.param("plugin"));
    if (!outcome) return warningFragment(c, "No such widget.", 404);
    return renderFragment(c, <WidgetBody outcome={outcome} timeZone={context.timeZone()} />);
  });
  return app;
}
