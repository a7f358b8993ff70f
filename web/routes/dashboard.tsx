/**
 * `GET /`: scheduler state, last and next heartbeat, pending events, events a hook set aside
 * (`POST /heartbeat/requeue` puts them back), recent notifications, counts and recent
 * conversations. The model server's status loads as a fragment (`GET /fragments/model-status`)
 * so a slow or unreachable server never delays the page.
 */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import type { ModelStatus } from "../../src/core/chat_model.ts";
import { redirectAfterPost, renderFragment, renderPage } from "../render.tsx";
import { DaemonSummary } from "../views/daemon_summary.tsx";
import { Unavailable } from "../views/layout.tsx";
import { formatTime } from "../views/format.ts";
import { WidgetSlots } from "../views/widgets.tsx";
import { SourceHealthList } from "../views/source_health.tsx";
import { ChannelStatusList } from "../views/channel_status.tsx";
import { requeueAction, RequeuedNotice, SetAsideCard } from "../views/set_aside.tsx";
import { WaitingCard } from "../views/approvals.tsx";
import { DefinitionList } from "../views/definition_list.tsx";
import { firstLine } from "../../src/core/errors.ts";

const statusCacheMilliseconds = 30_000;
const statusTimeoutMilliseconds = 3_000;
/** Set-aside events the home page lists (the card counts them all). */
const setAsideShown = 10;

function ModelStatusView(props: { status: ModelStatus }) {
  const { status } = props;
  const yesNo = (value: boolean | undefined) =>
    value === undefined ? "unknown" : value ? "yes" : "no";
  return (
    <DefinitionList
      lines={[
        ["server", `${status.provider} ${status.baseUrl}`],
        ["model", status.model],
        ["reachable", yesNo(status.reachable), status.reachable ? "good" : "bad"],
        ["model present", yesNo(status.modelPresent)],
        ["tools supported", yesNo(status.supportsTools)],
        status.problem ? ["problem", status.problem, "bad"] : null,
      ]}
    />
  );
}

/** Dashboard routes. */
export function dashboardRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;
  let cached: { at: number; status: ModelStatus } | undefined;

  async function modelStatus(): Promise<ModelStatus> {
    const now = deps.clock.now().getTime();
    if (cached && now - cached.at < statusCacheMilliseconds) return cached.status;
    const signal = AbortSignal.timeout(statusTimeoutMilliseconds);
    let status: ModelStatus;
    try {
      status = await deps.model.status(signal);
    } catch (error) {
      status = {
        baseUrl: "",
        provider: deps.model.provider,
        model: deps.model.model,
        reachable: false,
        problem: firstLine(error),
      };
    }
    cached = { at: now, status };
    return status;
  }

  app.get("/", async (c) => {
    const { daemon, plugins } = deps;
    const timeZone = context.timeZone();
    const channelList = deps.channels?.() ?? [];
    const [tasks, monitors, pluginList] = await Promise.all([
      daemon?.tasks(),
      daemon?.monitors(),
      plugins?.list(),
    ]);
    const recent = deps.conversations.list({ limit: 5 });
    const counts: Array<[string, string | number, string]> = [
      ["conversations", deps.conversations.count(), "/history"],
      ["facts", deps.facts.countFacts(), "/memory"],
      ["tasks", tasks ? tasks.length : "—", "/tasks"],
      ["monitors", monitors ? monitors.length : "—", "/tasks"],
      ["plugins", pluginList ? pluginList.length : "—", "/plugins"],
    ];
    if (deps.toolCount) counts.push(["tools", deps.toolCount(), "/logs"]);
    const setAside = await deps.setAside?.summary(setAsideShown);
    const waiting = deps.away?.approvals.list({ pendingOnly: true }) ?? [];
    return renderPage(
      c,
      context,
      { title: "Dashboard", active: "/" },
      <div class="grid">
        <RequeuedNotice count={c.req.query("requeued")} />
        {waiting.length ? <WaitingCard pending={waiting} timeZone={timeZone} /> : null}
        <section class="card">
          <h2>Heartbeat</h2>
          {daemon ? await DaemonSummary({ daemon, timeZone }) : (
            <Unavailable
              what="Daemon not running."
              hint="Start it with `radar serve` to get heartbeats, tasks and monitors."
            />
          )}
        </section>
        {setAside?.count ? <SetAsideCard {...setAside} timeZone={timeZone} /> : null}
        <section class="card">
          <h2>Model</h2>
          <div hx-get="/fragments/model-status" hx-trigger="load" hx-swap="innerHTML">
            <span class="muted">Checking the model server…</span>
          </div>
        </section>
        <section class="card">
          <h2>Counts</h2>
          <DefinitionList
            class="facts counts"
            lines={counts.map(([label, value, href]) => [<a href={href}>{label}</a>, value])}
          />
        </section>
        {deps.sourceHealth
          ? (
            <section class="card" id="source-health">
              <h2>Sources</h2>
              <SourceHealthList records={await deps.sourceHealth()} timeZone={timeZone} />
            </section>
          )
          : null}
        {channelList.length
          ? (
            <section class="card" id="channels">
              <h2>Channels</h2>
              <ChannelStatusList list={channelList} timeZone={timeZone} />
            </section>
          )
          : null}
        <section class="card">
          <h2>Recent conversations</h2>
          {recent.length
            ? (
              <ul class="plain">
                {recent.map((conversation) => (
                  <li>
                    <a href={`/history/${conversation.id}`}>{conversation.title || "(untitled)"}</a>
                    {" "}
                    <span class="muted">
                      {conversation.kind} · {formatTime(conversation.updatedAt, timeZone)}
                    </span>
                    {conversation.interruptedAt
                      ? <span class="badge outcome-error">interrupted</span>
                      : null}
                  </li>
                ))}
              </ul>
            )
            : (
              <p class="muted">
                No conversations yet. <a href="/chat">Start a chat</a>.
              </p>
            )}
        </section>
        {deps.widgets ? <WidgetSlots widgets={deps.widgets.list()} /> : null}
      </div>,
    );
  });

  app.post(requeueAction, async (c) => {
    if (!deps.setAside) return c.text("Not available here.", 404);
    const count = await deps.setAside.requeue();
    deps.logger.info("set-aside events put back in the queue", { count });
    return redirectAfterPost(c, `/?requeued=${count}`);
  });

  app.get("/fragments/model-status", async (c) => {
    return renderFragment(c, <ModelStatusView status={await modelStatus()} />);
  });
  return app;
}
