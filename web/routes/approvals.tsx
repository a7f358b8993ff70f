/**
 * `/approvals`: what waits for a yes (Approve, Deny, Always allow…), the standing grants (Revoke)
 * and recent file changes (Undo). `/act/SECRET`: the phone's buttons. The secret is the whole
 * credential for Deny and Undo — single-use, single-action, expiring — so that path needs no login
 * and no Origin (ntfy's app sends none); GET only shows what the button does, POST does it once.
 * Approve is more: its page shows the whole call only to a browser logged in to the dashboard,
 * and its POST runs only from there, carrying the hash of what that page showed (a notice's URL
 * travels through the notification server, which must not be able to say yes). A wrong secret is
 * answered 410 and never throttled: 32 random bytes cannot be guessed, and a throttle would let
 * forged presses lock out the real button.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { RouteContext } from "../app.tsx";
import { signedIn } from "../middleware/auth.ts";
import { outcomeLine } from "../../src/away/mod.ts";
import { displayPath } from "../../src/config/paths.ts";
import { field, parseId, redirectAfterPost, renderPage } from "../render.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import {
  ActPage,
  AlwaysAllowForm,
  ApprovalCard,
  ChangeList,
  GrantTable,
} from "../views/approvals.tsx";

const unavailable = (
  <Unavailable what="Approvals are not available here." hint="They live in `radar serve`." />
);

/** Approval, grant, undo and button routes. */
export function approvalsRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;
  const display = (path: string) => displayPath(path, deps.away?.home ?? "");

  app.get("/approvals", async (c) => {
    const away = deps.away;
    if (!away) {
      return renderPage(c, context, { title: "Approvals", active: "/approvals" }, unavailable);
    }
    const records = away.approvals.list({ limit: 50 });
    const pending = records.filter((record) => record.state === "pending");
    const decided = records.filter((record) => record.state !== "pending").slice(0, 10);
    const message = c.req.query("done");
    const grants = await away.grants.list();
    return await renderPage(
      c,
      context,
      { title: "Approvals", active: "/approvals" },
      <>
        {message ? <Notice>{message.slice(0, 500)}</Notice> : null}
        <section id="pending-approvals">
          <h2>Waiting for your yes</h2>
          {pending.length
            ? pending.map((record) => (
              <ApprovalCard key={record.id} record={record} timeZone={context.timeZone()} />
            ))
            : <p class="muted">Nothing waits for your yes.</p>}
        </section>
        <section id="grants">
          <h2>Standing grants</h2>
          <GrantTable grants={grants} timeZone={context.timeZone()} />
        </section>
        <section id="changes">
          <h2>Recent file changes</h2>
          <ChangeList
            entries={away.journal.recent(20)}
            display={display}
            timeZone={context.timeZone()}
          />
        </section>
        <section id="decided-approvals">
          <h2>Decided</h2>
          {decided.length
            ? decided.map((record) => (
              <ApprovalCard key={record.id} record={record} compact timeZone={context.timeZone()} />
            ))
            : <p class="muted">None yet.</p>}
        </section>
      </>,
    );
  });

  const noSuchApproval = (c: Context) =>
    renderPage(c, context, { title: "Approval", status: 404 }, <Notice>No such approval.</Notice>);

  app.get("/approvals/:id", (c) => {
    const record = findRecord(c);
    if (!record) return noSuchApproval(c);
    return renderPage(
      c,
      context,
      { title: `Approval #${record.id}`, active: "/approvals" },
      <ApprovalCard record={record} timeZone={context.timeZone()} />,
    );
  });

  // The filled page a browser submission would send (the model's page: shown as a picture only).
  app.get("/approvals/:id/screenshot.png", (c) => {
    const record = findRecord(c);
    const png = record?.hasScreenshot ? deps.away!.approvals.screenshot(record.id) : undefined;
    if (!png) return c.text("No screenshot.", 404);
    return c.body(png.slice().buffer, 200, {
      "content-type": "image/png",
      "cache-control": "private, no-store",
    });
  });

  app.get("/approvals/:id/always", async (c) => {
    const record = findRecord(c);
    if (!record || !deps.away) return noSuchApproval(c);
    const suggested = await deps.away.approvals.suggest(record);
    return renderPage(
      c,
      context,
      { title: `Always allow #${record.id}`, active: "/approvals" },
      <>
        <ApprovalCard record={record} compact timeZone={context.timeZone()} />
        <AlwaysAllowForm record={record} suggested={suggested} />
      </>,
    );
  });

  function findRecord(c: Context) {
    const id = parseId(c.req.param("id"));
    if (id === undefined || !deps.away) return undefined;
    try {
      return deps.away.approvals.show(id);
    } catch {
      return undefined;
    }
  }

  const done = (c: Context, text: string) =>
    redirectAfterPost(c, `/approvals?done=${encodeURIComponent(text.slice(0, 400))}`);

  // A yes from the dashboard comes from a page that showed the whole call: its form carries the
  // hash of what it showed (the CLI and paired chats approve through their own ways).
  const unseen = `Not approved: approve it on the approval's page, which shows the whole call.`;

  app.post("/approvals/:id/approve", async (c) => {
    const record = findRecord(c);
    if (!record) return c.text("No such approval.", 404);
    const seen = await shownOnPage(c);
    if (seen === undefined) return c.text(unseen, 400);
    const outcome = await deps.away!.approvals.approve(record.id, "dashboard", undefined, seen);
    return done(c, outcomeLine(outcome));
  });

  app.post("/approvals/:id/deny", (c) => {
    const record = findRecord(c);
    if (!record) return c.text("No such approval.", 404);
    return done(c, deps.away!.approvals.deny(record.id, "dashboard").text);
  });

  app.post("/approvals/:id/always", async (c) => {
    const record = findRecord(c);
    if (!record) return c.text("No such approval.", 404);
    const form = await c.req.parseBody();
    const patterns: Record<string, string> = {};
    for (const name of Object.keys(form)) {
      if (!name.startsWith("arg.")) continue;
      const value = field(form, name);
      if (value) patterns[name.slice(4)] = value;
    }
    const seen = field(form, "shown") || undefined;
    if (seen === undefined) return c.text(unseen, 400);
    try {
      const outcome = await deps.away!.approvals.alwaysAllow(
        record.id,
        "dashboard",
        patterns,
        field(form, "note"),
        seen,
      );
      return done(c, `Grant ${outcome.grantId} added. ${outcomeLine(outcome)}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return renderPage(
        c,
        context,
        { title: `Always allow #${record.id}`, active: "/approvals", status: 422 },
        <>
          <Notice kind="error">{message}</Notice>
          <AlwaysAllowForm record={record} suggested={patterns} />
        </>,
      );
    }
  });

  app.post("/grants/:id/revoke", (c) => {
    const id = c.req.param("id");
    if (!deps.away || !/^\d{1,12}$/.test(id)) return c.text("No such grant.", 404);
    try {
      deps.away.grants.revoke(id);
    } catch (error) {
      return c.text((error as Error).message, 404);
    }
    return done(c, `Revoked grant ${id}.`);
  });

  app.post("/actions/:id/undo", async (c) => {
    const id = parseId(c.req.param("id"));
    if (id === undefined || !deps.away) return c.text("No such change.", 404);
    const result = await deps.away.undo(id);
    return done(c, result.ok ? `Undone #${id}: ${result.note}.` : `Not undone: ${result.reason}.`);
  });

  /** A button's page: what it does, and a form that does it (GET never acts). */
  app.get("/act/:secret", (c) => {
    const seen = deps.away?.approvals.peek(c.req.param("secret"));
    const outside = { loggedIn: false, timesNote: context.timesNote };
    if (!seen) {
      return renderPage(
        c,
        outside,
        { title: "Button", status: 410 },
        <Notice kind="warning">This button has expired or was used already.</Notice>,
      );
    }
    const { action, target } = seen.capability;
    const record = action === "undo" ? undefined : deps.away!.approvals.show(target);
    return renderPage(
      c,
      outside,
      { title: "Radar" },
      <ActPage
        action={action}
        record={record}
        summary={seen.summary}
        loggedIn={signedIn(c)}
        login={`/login?next=${encodeURIComponent(c.req.path)}`}
        timeZone={context.timeZone()}
      />,
    );
  });

  /**
   * A button's POST (the ntfy app, or the form above): its one action, once. What the page
   * showed counts only from a browser logged in to the dashboard (only there does it show the
   * whole call).
   */
  app.post("/act/:secret", async (c) => {
    if (!deps.away) return c.text("Approvals are not available here.", 503);
    const seen = signedIn(c) ? await shownOnPage(c) : undefined;
    const result = await deps.away.approvals.redeem(c.req.param("secret"), seen);
    const status = result.ok
      ? 200
      : result.why === "spent"
      ? 410
      : result.why === "unseen"
      ? 403
      : 409;
    if ((c.req.header("accept") ?? "").includes("text/html")) {
      return renderPage(
        c,
        { loggedIn: false, timesNote: context.timesNote },
        { title: "Radar", status },
        <Notice kind={result.ok ? "info" : "warning"}>{result.text}</Notice>,
      );
    }
    return c.text(result.text, status as 200);
  });

  return app;
}

/**
 * The shown hash a page's form carried (what the person looked at when they pressed the button),
 * or undefined for a POST without one (a notice's own button, the API).
 */
async function shownOnPage(c: Context): Promise<string | undefined> {
  if (!(c.req.header("content-type") ?? "").includes("form")) return undefined;
  const form = await c.req.parseBody().catch(() => ({}));
  return field(form, "shown") || undefined;
}
