/**
 * Dashboard widgets from plugins: what a widget shows is data, never markup. A plugin's widget
 * function returns text lines, label/value rows and http(s) links; the dashboard renders them
 * with its own escaped templates, so nothing a plugin returns can run in the page.
 */

/** One label/value row of a widget. */
export interface WidgetRow {
  label: string;
  value: string;
}

/** One link of a widget (`url` is an absolute http: or https: URL). */
export interface WidgetLink {
  text: string;
  url: string;
}

/** What a widget shows, after checking. */
export interface WidgetContent {
  lines: string[];
  rows: WidgetRow[];
  links: WidgetLink[];
  /** Items left out (over a limit, or not of the expected shape, or a link that is not http(s)). */
  omitted: number;
}

/** A widget an enabled, approved plugin declares. */
export interface WidgetSummary {
  plugin: string;
  title: string;
  /** Seconds between refreshes in the page; 0: on page load only. */
  refreshSeconds: number;
}

/** The outcome of asking a plugin for its widget (failures are one readable line). */
export type WidgetOutcome =
  | { ok: true; content: WidgetContent; at: string }
  | { ok: false; error: string; at: string };

/** Port: the widgets the dashboard shows. */
export interface WidgetSource {
  list(): WidgetSummary[];
  /** The widget's content (cached for its refresh interval); undefined: no such widget. */
  render(plugin: string): Promise<WidgetOutcome | undefined>;
}
