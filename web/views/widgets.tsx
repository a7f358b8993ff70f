/**
 * Plugin widgets on the dashboard home. A slot per widget loads its body as a fragment
 * (`GET /fragments/widgets/NAME`), so a slow or failing plugin never delays the page; the body is
 * data a plugin returned (text lines, label/value rows, http(s) links) rendered by these
 * templates, so every character is escaped and nothing from the plugin can run.
 */
import type { WidgetOutcome, WidgetSummary } from "../../src/plugins/widget.ts";
import { formatTime } from "./format.ts";
import { DefinitionList } from "./definition_list.tsx";

/** One card per widget; each loads its body on page load and every refresh interval. */
export function WidgetSlots(props: { widgets: WidgetSummary[] }) {
  return (
    <>
      {props.widgets.map((widget) => (
        <section class="card widget" data-plugin={widget.plugin}>
          <h2>
            {widget.title} <span class="muted">· plugin {widget.plugin}</span>
          </h2>
          <div
            hx-get={`/fragments/widgets/${encodeURIComponent(widget.plugin)}`}
            hx-trigger={widget.refreshSeconds ? `load, every ${widget.refreshSeconds}s` : "load"}
            hx-swap="innerHTML"
          >
            <span class="muted">Loading…</span>
          </div>
        </section>
      ))}
    </>
  );
}

/** A widget's body: its lines, rows and links, or the one-line reason it has none. */
export function WidgetBody(props: { outcome: WidgetOutcome; timeZone: string | undefined }) {
  const { outcome } = props;
  if (!outcome.ok) {
    return (
      <p class="bad widget-error">
        Widget unavailable: {outcome.error}{" "}
        <span class="muted">({formatTime(outcome.at, props.timeZone)})</span>
      </p>
    );
  }
  const { lines, rows, links, omitted } = outcome.content;
  return (
    <div class="widget-body">
      {lines.map((line) => <p>{line}</p>)}
      {rows.length ? <DefinitionList lines={rows.map((row) => [row.label, row.value])} /> : null}
      {links.length
        ? (
          <ul class="plain">
            {links.map((link) => (
              <li>
                <a href={link.url} rel="noopener noreferrer nofollow" target="_blank">
                  {link.text}
                </a>
              </li>
            ))}
          </ul>
        )
        : null}
      {!lines.length && !rows.length && !links.length
        ? <p class="muted">Nothing to show.</p>
        : null}
      {omitted ? <p class="muted">{omitted} item(s) left out.</p> : null}
    </div>
  );
}
