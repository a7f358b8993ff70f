/** The page shell: head (CSP-friendly htmx config), navigation, main content. */
import type { Child } from "hono/jsx";

/**
 * htmx settings that keep it inside the CSP: no eval, no script tags, no inline styles. History
 * is on only so a response can set the address (HX-Replace-Url); no page snapshot is ever stored
 * (cache size 0) and going back to such an entry reloads it from the server.
 */
export const htmxConfig = JSON.stringify({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  selfRequestsOnly: true,
  historyEnabled: true,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  defaultSwapStyle: "innerHTML",
  // 422 = "your input is invalid": swap the message in, no console error. Other errors swap a
  // one-line notice in too (and count as errors).
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true, error: false },
    { code: "[45]..", swap: true, error: true },
  ],
});

/** Navigation entries: path and label. */
export const navigation: ReadonlyArray<readonly [string, string]> = [
  ["/", "Dashboard"],
  ["/chat", "Chat"],
  ["/history", "History"],
  ["/memory", "Memory"],
  ["/tasks", "Tasks"],
  ["/approvals", "Approvals"],
  ["/plugins", "Plugins"],
  ["/config", "Config"],
  ["/logs", "Logs"],
  ["/eval", "Eval"],
  ["/summaries", "Summaries"],
  ["/money", "Money"],
  ["/personalities", "Personalities"],
];

/** Properties of the page shell. */
export interface LayoutProps {
  title: string;
  /** The navigation path to highlight. */
  active?: string;
  /** Whether to show the log-out button (a token is configured). */
  loggedIn?: boolean;
  /** Something every page must say first (a damaged database). */
  problem?: string;
  children?: Child;
}

/** A full HTML page. */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <meta name="htmx-config" content={htmxConfig} />
        <title>{props.title} · Radar</title>
        <link rel="stylesheet" href="/static/style.css" />
        <script src="/static/vendor/htmx.min.js" defer></script>
        <script src="/static/app.js" defer></script>
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/">Radar</a>
          <nav>
            {navigation.map(([path, label]) => (
              <a href={path} class={props.active === path ? "active" : undefined}>{label}</a>
            ))}
          </nav>
          {props.loggedIn
            ? (
              <form method="post" action="/logout" class="logout">
                <button type="submit" class="link">Log out</button>
              </form>
            )
            : null}
        </header>
        <main>
          {props.problem ? <Notice kind="error">{props.problem}</Notice> : null}
          <h1>{props.title}</h1>
          <div id="flash" aria-live="polite"></div>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A notice box (info, warning, error). */
export function Notice(props: { kind?: "info" | "warning" | "error"; children?: Child }) {
  return (
    <div
      class={`notice ${props.kind ?? "info"}`}
      role={props.kind === "error" ? "alert" : undefined}
    >
      {props.children}
    </div>
  );
}

/** Shown in place of a section whose provider is absent. */
export function Unavailable(props: { what: string; hint: string }) {
  return (
    <Notice kind="warning">
      <strong>{props.what}</strong> {props.hint}
    </Notice>
  );
}
