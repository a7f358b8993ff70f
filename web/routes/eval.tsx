/** `/eval`: stored `radar eval` runs (model, pass rate, accuracy, leaks, tokens); `/eval/:id` its tasks. */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { parseId, renderPage } from "../render.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import { EvalRunTable, EvalTaskTable } from "../views/eval_runs.tsx";
import { formatHistoryLine } from "../../src/core/eval_records.ts";

/** Eval routes. */
export function evalRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;
  const missing = (
    <Unavailable what="Eval results not available." hint="They are read from Radar's database." />
  );

  app.get("/eval", (c) => {
    const history = deps.evalRuns;
    return renderPage(
      c,
      context,
      { title: "Eval", active: "/eval" },
      history
        ? (
          <section>
            <h2>Model eval runs</h2>
            <p class="muted">
              `radar eval [--model M] [--server URL]` scores a model on built-in tool-calling tasks,
              `radar eval --suite proactive` on heartbeat decisions (act, notify, ask or stay quiet;
              false alarms and misses counted apart); each run is listed here, per model.
            </p>
            <EvalRunTable runs={history.recent(100)} timeZone={context.timeZone()} />
          </section>
        )
        : missing,
    );
  });

  app.get("/eval/:id", (c) => {
    const history = deps.evalRuns;
    const id = parseId(c.req.param("id"));
    const run = id && history ? history.get(id) : undefined;
    if (!history || !run) {
      return renderPage(
        c,
        context,
        { title: "Eval run not found", active: "/eval", status: 404 },
        history ? <Notice kind="warning">No such eval run.</Notice> : missing,
      );
    }
    return renderPage(
      c,
      context,
      { title: `Eval run #${run.id}`, active: "/eval" },
      <section>
        <h2>Eval run #{run.id}</h2>
        <p>{formatHistoryLine(run, context.timeZone())}</p>
        <EvalTaskTable outcomes={history.outcomes(run.id)} />
        <p>
          <a href="/eval">All runs</a>
        </p>
      </section>,
    );
  });

  return app;
}
