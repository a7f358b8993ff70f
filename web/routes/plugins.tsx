/**
 * `/plugins`: installed plugins with their granted permissions in plain words, enable/disable;
 * `/plugins/review`: pending reviews with code, test results and the permission diff,
 * approve/reject. Local-trust plugins carry a prominent warning.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import type { PluginsView, SkillView } from "../ports.ts";
import { field, flash, isHtmx, redirectAfterPost, renderPage } from "../render.tsx";
import { PluginReviewView, PluginTable } from "../views/plugins.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import { McpServerList } from "../views/mcp_servers.tsx";
import { Table } from "../views/table.tsx";
import { firstLine } from "../../src/core/errors.ts";

const pluginsMissing = (
  <Unavailable
    what="Plugins not available."
    hint="The plugin host is not attached to this dashboard."
  />
);

/** The Agent Skills Radar found, read-only (`radar skill show NAME` prints one). */
function SkillList(props: { skills?: SkillView[] }) {
  if (!props.skills) return null;
  return (
    <section>
      <h2>Skills</h2>
      {props.skills.length
        ? (
          <Table columns={["Skill", "From", "State", "Description"]}>
            {props.skills.map((skill) => (
              <tr>
                <td>{skill.name}</td>
                <td>{skill.source}</td>
                <td>
                  {skill.missing.length ? `hidden: needs ${skill.missing.join(", ")}` : "usable"}
                </td>
                <td>{skill.description}</td>
              </tr>
            ))}
          </Table>
        )
        : <p>No skills found.</p>}
    </section>
  );
}

/** Plugin names as the manifest allows them (checked again by the plugin host). */
const pluginName = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Plugin routes. */
export function pluginsRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  app.get("/plugins", async (c) => {
    const plugins = deps.plugins;
    const reviews = plugins?.pendingReviews() ?? [];
    const list = plugins?.list().map((summary) => {
      try {
        return { summary, permissions: plugins.details(summary.name).permissions };
      } catch {
        return { summary, permissions: [] };
      }
    });
    return renderPage(
      c,
      context,
      { title: "Plugins", active: "/plugins" },
      <>
        {reviews.length
          ? (
            <Notice kind="warning">
              <a href="/plugins/review">{reviews.length} plugin(s) waiting for review</a>
            </Notice>
          )
          : null}
        {list ? <PluginTable plugins={list} /> : pluginsMissing}
        <SkillList skills={deps.skills?.()} />
        <McpServerList servers={await deps.mcpServers?.()} />
      </>,
    );
  });

  app.get("/plugins/review", (c) => {
    const reviews = deps.plugins?.pendingReviews();
    return renderPage(
      c,
      context,
      { title: "Plugin review", active: "/plugins" },
      !reviews
        ? pluginsMissing
        : reviews.length
        ? reviews.map((review) => (
          <PluginReviewView review={review} timeZone={context.timeZone()} />
        ))
        : <p class="muted">Nothing waiting for review.</p>,
    );
  });

  async function act(
    c: Context,
    action: (plugins: PluginsView, name: string) => unknown,
    back: string,
  ): Promise<Response> {
    const plugins = deps.plugins;
    const name = c.req.param("name") ?? "";
    const refuse = (message: string, kind: "warning" | "error", status: 400 | 503) =>
      isHtmx(c) ? flash(c, message, kind, status) : c.text(message, status);
    if (!plugins) return refuse("Plugins not available.", "warning", 503);
    if (!pluginName.test(name)) return refuse("Bad plugin name.", "error", 400);
    try {
      await action(plugins, name);
    } catch (error) {
      const message = firstLine(error);
      if (isHtmx(c)) return flash(c, message);
      return renderPage(
        c,
        context,
        { title: "Plugins", active: "/plugins", status: 422 },
        <Notice kind="error">
          {message} <a href={back}>Back</a>
        </Notice>,
      );
    }
    return redirectAfterPost(c, back);
  }

  app.post(
    "/plugins/:name/approve",
    (c) => act(c, (plugins, name) => plugins.approve(name), "/plugins/review"),
  );
  app.post("/plugins/:name/reject", async (c) => {
    const reason = field(await c.req.parseBody(), "reason").slice(0, 500) ||
      "rejected in the dashboard";
    return act(c, (plugins, name) => plugins.reject(name, reason), "/plugins/review");
  });
  for (const action of ["enable", "disable"] as const) {
    app.post(
      `/plugins/:name/${action}`,
      (c) => act(c, (plugins, name) => plugins[action](name), "/plugins"),
    );
  }
  return app;
}
