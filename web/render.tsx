/** Turns JSX into responses: full pages with the layout, or bare htmx fragments. */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { Layout, Notice } from "./views/layout.tsx";

/** What every page needs to know about the app. */
export interface PageContext {
  /** A token is configured, so the layout shows "Log out". */
  loggedIn: boolean;
  /** "Times in Europe/Berlin (UTC+01:00)": the page footer naming the zone times are shown in. */
  timesNote?(): string;
  /** The one line about a damaged database, shown at the top of every page. */
  databaseProblem?: () => string | undefined | Promise<string | undefined>;
}

/** Renders a full page inside the layout. */
export async function renderPage(
  c: Context,
  pageContext: PageContext,
  page: { title: string; active?: string; status?: number },
  body: Child,
): Promise<Response> {
  const problem = await pageContext.databaseProblem?.();
  const html = await (
    <Layout
      title={page.title}
      active={page.active}
      loggedIn={pageContext.loggedIn}
      footer={pageContext.timesNote?.()}
      problem={problem}
    >
      {body}
    </Layout>
  );
  return c.html(`<!DOCTYPE html>${html}`, (page.status ?? 200) as 200);
}

/** Renders an htmx fragment (no layout). */
export async function renderFragment(c: Context, body: Child, status = 200): Promise<Response> {
  const html = await <>{body}</>;
  return c.html(String(html), status as 200);
}

/** An htmx fragment of one warning notice (input refused, or nothing by that id). */
export function warningFragment(c: Context, message: Child, status: number): Promise<Response> {
  return renderFragment(c, <Notice kind="warning">{message}</Notice>, status);
}

/** Whether the request came from htmx (wants a fragment, not a page). */
export function isHtmx(c: Context): boolean {
  return c.req.header("hx-request") === "true";
}

/** After a state change: htmx follows HX-Redirect, a plain form follows 303. */
export function redirectAfterPost(c: Context, location: string): Response {
  if (isHtmx(c)) {
    c.header("HX-Redirect", location);
    return c.body(null, 204);
  }
  return c.redirect(location, 303);
}

/** Parses a positive integer path or query parameter; undefined when it is not one. */
export function parseId(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  const id = Number(value);
  return id > 0 ? id : undefined;
}

/** Reads a form field as a trimmed string ("" when absent or a file). */
export function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value.trim() : "";
}

/** An htmx answer that shows a one-line message in the page's #flash box instead of the target. */
export function flash(
  c: Context,
  message: string,
  kind: "info" | "warning" | "error" = "error",
  status = 422,
): Promise<Response> {
  c.header("HX-Retarget", "#flash");
  c.header("HX-Reswap", "innerHTML");
  return renderFragment(c, <Notice kind={kind}>{message}</Notice>, status);
}
