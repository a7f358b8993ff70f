/**
 * `GET /fragments/widgets/:plugin`: one plugin widget's body (htmx fragment), or a one-line
 * notice. The plugin's answer is cached and bounded by `PluginWidgets`; this route only renders.
 */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { renderFragment } from "../render.tsx";
import { Notice } from "../views/layout.tsx";
import { WidgetBody } from "../views/widgets.tsx";

/** Widget fragment routes. */
export function widgetsRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get("/fragments/widgets/:plugin{[a-z][a-z0-9_]{0,47}}", async (c) => {
    const outcome = await context.deps.widgets?.render(c.req.param("plugin"));
    if (!outcome) {
      return renderFragment(c, <Notice kind="warning">No such widget.</Notice>, 404);
    }
    return renderFragment(c, <WidgetBody outcome={outcome} timeZone={context.timeZone()} />);
  });
  return app;
}
