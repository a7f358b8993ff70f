/** Managing URL monitors: add, list, remove, pause (CLI, LLM tools and the dashboard share it). */
import type { MonitorStore } from "../../core/work_ports.ts";
import type { RadarConfig } from "../../config/schema.ts";
import type { Clock } from "../../core/ports.ts";
import type { MonitorRecord, MonitorRegistry, MonitorRequest } from "../../core/schedule_ports.ts";
import { formatDurationMinutes, isFailing, parseDurationMinutes } from "../../core/schedule.ts";
import { formatLocalTime } from "../../core/zoned_time.ts";
import { checkUrl } from "../../adapters/network/network_guard.ts";

/** The default check interval. */
const defaultMonitorEvery = "60m";

/** URL monitors over their store. */
export class MonitorService implements MonitorRegistry {
  constructor(
    readonly store: MonitorStore,
    private readonly config: RadarConfig,
    private readonly clock: Clock,
  ) {}

  /** Adds a monitor, first checked on the next tick; returns it or a readable error. */
  async add(request: MonitorRequest): Promise<MonitorRecord | { error: string }> {
    const text = request.url.trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { error: `"${text.slice(0, 200)}" is not a URL` };
    }
    // Names are resolved at each check; here only what is knowable without DNS is refused.
    const problem = await checkUrl(url, {
      allowPrivate: this.config.tools.fetch_url.allow_private,
      resolve: () => Promise.resolve([]),
    });
    if (problem && !problem.startsWith("cannot resolve")) return { error: problem };
    const everyText = request.every?.trim() || defaultMonitorEvery;
    const everyMinutes = parseDurationMinutes(everyText);
    if (!everyMinutes) return { error: `every must look like 30m, 2h or 1d, not "${everyText}"` };
    const selector = request.selector?.trim() ?? "";
    if (selector.length > 500) return { error: "the selector is longer than 500 characters" };
    if (selector) {
      // The HTML query loads with the first monitor that has a selector.
      const { selectHtml } = await pageFetchModule();
      const probe = await selectHtml("<p></p>", selector);
      if ("error" in probe) return probe;
    }
    const name = (request.name?.trim() || `${url.host}${url.pathname.replace(/\/$/, "")}`)
      .replace(/\s+/g, " ").slice(0, 60);
    const now = this.clock.now();
    const id = this.store.add({
      name,
      url: url.href,
      selector,
      everyMinutes,
      urgent: request.urgent ?? false,
      nextCheckAt: now,
    }, now);
    return this.store.get(id)!;
  }

  /** Every monitor. */
  list(): MonitorRecord[] {
    return this.store.list();
  }

  /** Removes a monitor. */
  remove(id: number): boolean {
    return this.store.remove(id);
  }

  /** Pauses or resumes a monitor (resumed: checked on the next tick, failures forgotten). */
  setEnabled(id: number, enabled: boolean): MonitorRecord | undefined {
    const monitor = this.store.get(id);
    if (!monitor) return undefined;
    const next = enabled ? this.clock.now() : new Date(monitor.nextCheckAt);
    this.store.setEnabled(id, enabled, next);
    return this.store.get(id);
  }

  /** One line about a monitor, for `radar monitor list` and `radar status`. */
  static describe(monitor: MonitorRecord, timeZone?: string): string {
    const parts = [`#${monitor.id} ${monitor.name} — ${monitor.url}`];
    if (monitor.selector) parts.push(`(${monitor.selector})`);
    parts.push(`every ${formatDurationMinutes(monitor.everyMinutes)};`);
    if (!monitor.enabled) parts.push("paused");
    else parts.push(`next ${formatLocalTime(new Date(monitor.nextCheckAt), timeZone)}`);
    if (isFailing(monitor)) {
      parts.push(`; FAILING (${monitor.failures} checks in a row: ${monitor.lastError})`);
    } else if (monitor.lastResult) parts.push(`; last: ${monitor.lastResult}`);
    return parts.join(" ").replace(" ;", ";");
  }
}

/** The page fetch and HTML query, loaded with the first monitor that has a selector. */
function pageFetchModule(): Promise<typeof import("./page_fetch.ts")> {
  return import(new URL("./page_fetch.ts", import.meta.url).href);
}
