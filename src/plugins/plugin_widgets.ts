/**
 * Dashboard widgets of the enabled, approved plugins, asked through the same warm plugin hosts as
 * their tools (same grant, per-call deadline, SIGKILL and respawn). The page never waits on a
 * plugin: it loads each widget as its own fragment, and here each answer (or failure) is cached
 * for the widget's refresh interval (at least `minCacheSeconds`), concurrent requests share one
 * call, and a call that outlasts `widgetDeadlineMs` is a failure line, whatever the host does
 * later. Failures are audited as `plugin:NAME:FUNCTION` once per interval.
 */
import type { AuditSink, Clock, Logger } from "../core/ports.ts";
import type { WidgetOutcome, WidgetSource, WidgetSummary } from "./widget.ts";
import { textForTerminal } from "../core/terminal_text.ts";
import type { LoadedPlugin } from "./plugin_inventory.ts";
import type { PluginHostPool } from "./plugin_tools.ts";
import { parseWidgetContent } from "./widget_content.ts";

/** The longest a dashboard fragment waits for a widget. */
const widgetDeadlineMs = 5_000;
/** Answers and failures are reused at least this long (a page reload does not call again). */
const minCacheSeconds = 30;

/** What the widgets need. */
interface PluginWidgetsOptions {
  pool: PluginHostPool;
  clock: Clock;
  logger: Logger;
  audit?: AuditSink;
  /** Milliseconds a widget call may take (default `widgetDeadlineMs`). */
  deadlineMs?: number;
}

interface Entry {
  plugin: LoadedPlugin;
  summary: WidgetSummary;
  function: string;
}

/** The widgets of the enabled plugins. */
export class PluginWidgets implements WidgetSource {
  readonly #options: PluginWidgetsOptions;
  #entries = new Map<string, Entry>();
  #cache = new Map<string, { hash: string; until: number; outcome: WidgetOutcome }>();
  #inFlight = new Map<string, Promise<WidgetOutcome>>();

  constructor(options: PluginWidgetsOptions) {
    this.#options = options;
  }

  /** Replaces the set of plugins whose widgets show (enabled and approved ones only). */
  update(plugins: LoadedPlugin[]): void {
    this.#entries = new Map();
    for (const plugin of plugins) {
      const widget = plugin.folder.manifest.widget;
      if (!widget || !plugin.folder.manifest.capabilities.includes("widget")) continue;
      this.#entries.set(plugin.folder.name, {
        plugin,
        function: widget.function,
        summary: {
          plugin: plugin.folder.name,
          title: widget.title,
          refreshSeconds: widget.refresh_interval,
        },
      });
    }
    for (const name of this.#cache.keys()) {
      if (!this.#entries.has(name)) this.#cache.delete(name);
    }
  }

  /** The widgets, by plugin name. */
  list(): WidgetSummary[] {
    return [...this.#entries.values()].map((entry) => entry.summary)
      .sort((a, b) => a.plugin.localeCompare(b.plugin));
  }

  /** A widget's content or failure line; undefined when no enabled plugin has that widget. */
  async render(name: string): Promise<WidgetOutcome | undefined> {
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    const now = this.#options.clock.now().getTime();
    const cached = this.#cache.get(name);
    if (cached && cached.hash === entry.plugin.folder.hash && cached.until > now) {
      return cached.outcome;
    }
    let call = this.#inFlight.get(name);
    if (!call) {
      call = this.#ask(entry).finally(() => this.#inFlight.delete(name));
      this.#inFlight.set(name, call);
    }
    const outcome = await call;
    const seconds = Math.max(entry.summary.refreshSeconds, minCacheSeconds);
    this.#cache.set(name, {
      hash: entry.plugin.folder.hash,
      until: this.#options.clock.now().getTime() + seconds * 1000,
      outcome,
    });
    return outcome;
  }

  async #ask(entry: Entry): Promise<WidgetOutcome> {
    const deadlineMs = this.#options.deadlineMs ?? widgetDeadlineMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<{ outcome: "timeout"; text: string }>((resolve) => {
      timer = setTimeout(
        () => resolve({ outcome: "timeout", text: `did not answer within ${deadlineMs} ms` }),
        deadlineMs,
      );
    });
    let answer: { outcome: string; text: string };
    try {
      answer = await Promise.race([
        this.#options.pool.host(entry.plugin).call(entry.function, {}),
        late,
      ]);
    } catch (error) {
      answer = { outcome: "error", text: (error as Error).message };
    } finally {
      clearTimeout(timer);
    }
    const at = this.#options.clock.now().toISOString();
    if (answer.outcome === "ok") {
      const parsed = parseWidgetContent(answer.text);
      if (parsed.ok) return { ok: true, content: parsed.content, at };
      answer = { outcome: "error", text: parsed.error };
    }
    const error = oneLine(answer.text);
    this.#record(entry, answer.outcome === "timeout" ? "timeout" : "error", error);
    return { ok: false, error, at };
  }

  #record(entry: Entry, outcome: "timeout" | "error", text: string): void {
    const tool = `plugin:${entry.plugin.folder.name}:${entry.function}`;
    this.#options.logger.warn(`${tool} ${outcome}: ${text}`);
    this.#options.audit?.recordToolCall({
      at: this.#options.clock.now(),
      tool,
      arguments: JSON.stringify({ widget: entry.summary.title }),
      durationMs: 0,
      outcome,
      result: text,
    });
  }
}

function oneLine(text: string): string {
  const flat = textForTerminal(text).replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat || "failed";
}
