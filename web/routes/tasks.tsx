/**
 * `/tasks`: scheduled tasks and URL monitors with next run, last result, enable/disable, run
 * now, add, remove. Every change is a POST; without a daemon the page says so.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import type { DaemonView } from "../ports.ts";
import {
  field,
  flash,
  isHtmx,
  parseId,
  redirectAfterPost,
  renderFragment,
  renderPage,
} from "../render.tsx";
import { MonitorTable, TaskTable } from "../views/tasks.tsx";
import { BudgetCard } from "../views/budget.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import { firstLine } from "../../src/core/errors.ts";

const daemonMissing = (
  <Unavailable
    what="Daemon not running."
    hint="Tasks and monitors run inside `radar serve`; start it to manage them here."
  />
);

/** The POST routes that act on one task or monitor by id. */
const idActions: Record<string, (daemon: DaemonView, id: number) => unknown> = {
  "/tasks/:id{[0-9]+}/enable": (daemon, id) => daemon.setTaskEnabled(id, true),
  "/tasks/:id{[0-9]+}/disable": (daemon, id) => daemon.setTaskEnabled(id, false),
  "/tasks/:id{[0-9]+}/run": (daemon, id) => daemon.runTaskNow(id),
  "/tasks/:id{[0-9]+}/delete": (daemon, id) => daemon.removeTask(id),
  "/tasks/monitors/:id{[0-9]+}/enable": (daemon, id) => daemon.setMonitorEnabled(id, true),
  "/tasks/monitors/:id{[0-9]+}/disable": (daemon, id) => daemon.setMonitorEnabled(id, false),
  "/tasks/monitors/:id{[0-9]+}/check": (daemon, id) => daemon.checkMonitorNow(id),
  "/tasks/monitors/:id{[0-9]+}/delete": (daemon, id) => daemon.removeMonitor(id),
};

/** Task and monitor routes. */
export function tasksRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  async function page(c: Context, error?: string) {
    const daemon = deps.daemon;
    if (!daemon) return renderPage(c, context, { title: "Tasks", active: "/tasks" }, daemonMissing);
    const [tasks, monitors, budget] = await Promise.all([
      daemon.tasks(),
      daemon.monitors(),
      daemon.budget?.(),
    ]);
    const timeZone = context.timeZone();
    return renderPage(
      c,
      context,
      { title: "Tasks", active: "/tasks", status: error ? 422 : 200 },
      <>
        {error ? <Notice kind="error">{error}</Notice> : null}
        <section>
          <h2>Scheduled tasks</h2>
          <TaskTable tasks={tasks} budget={budget} timeZone={timeZone} />
          {budget ? <BudgetCard report={budget} timeZone={timeZone} /> : null}
          <details class="card">
            <summary>Add a task</summary>
            <form method="post" action="/tasks" class="stack">
              <input
                name="name"
                placeholder="Name (optional)"
                aria-label="Task name"
                maxlength={100}
              />
              <input
                name="schedule"
                required
                placeholder="every Monday at 9am / tomorrow at 8 / every 2h / 0 9 * * 1"
                aria-label="Schedule"
                maxlength={100}
              />
              <textarea
                name="prompt"
                required
                rows={2}
                placeholder="What Radar should do"
                aria-label="Prompt"
                maxlength={4000}
              >
              </textarea>
              <button type="submit">Add task</button>
            </form>
          </details>
        </section>
        <section>
          <h2>URL monitors</h2>
          <MonitorTable monitors={monitors} timeZone={timeZone} />
          <details class="card">
            <summary>Add a monitor</summary>
            <form method="post" action="/tasks/monitors" class="stack">
              <input
                name="url"
                type="url"
                required
                placeholder="https://example.com/page"
                aria-label="URL"
                maxlength={2000}
              />
              <input name="every" value="60m" required aria-label="Check every" maxlength={20} />
              <input
                name="selector"
                placeholder="CSS selector (optional)"
                aria-label="Selector"
                maxlength={200}
              />
              <input
                name="name"
                placeholder="Name (optional)"
                aria-label="Monitor name"
                maxlength={100}
              />
              <button type="submit">Add monitor</button>
            </form>
          </details>
        </section>
      </>,
    );
  }

  app.get("/tasks", (c) => page(c));

  /** Runs a daemon action; a thrown Error becomes a readable message on the page. */
  async function act(c: Context, action: (daemon: DaemonView) => unknown): Promise<Response> {
    const daemon = deps.daemon;
    if (!daemon) {
      return isHtmx(c)
        ? flash(c, "Daemon not running.", "warning", 503)
        : renderFragment(c, daemonMissing, 503);
    }
    try {
      await action(daemon);
    } catch (error) {
      const message = firstLine(error);
      return isHtmx(c) ? flash(c, message) : page(c, message);
    }
    return redirectAfterPost(c, "/tasks");
  }

  app.post("/tasks", async (c) => {
    const form = await c.req.parseBody();
    const schedule = field(form, "schedule");
    const prompt = field(form, "prompt");
    if (!schedule || !prompt) return page(c, "A task needs a schedule and a prompt.");
    return act(
      c,
      (daemon) =>
        daemon.addTask({ name: field(form, "name") || prompt.slice(0, 40), schedule, prompt }),
    );
  });

  app.post("/tasks/monitors", async (c) => {
    const form = await c.req.parseBody();
    const url = field(form, "url");
    if (!/^https?:\/\//i.test(url)) return page(c, "A monitor needs an http(s) URL.");
    return act(c, (daemon) =>
      daemon.addMonitor({
        url,
        every: field(form, "every") || "60m",
        selector: field(form, "selector") || undefined,
        name: field(form, "name") || undefined,
      }));
  });
  for (const [path, action] of Object.entries(idActions)) {
    app.post(path, (c) => {
      const id = parseId(c.req.param("id"));
      if (!id) return c.text("Bad id.", 400);
      return act(c, (daemon) => action(daemon, id));
    });
  }
  return app;
}
