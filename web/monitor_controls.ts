/**
 * URL monitors in the shape the dashboard's DaemonView expects (web/daemon_view.ts
 * `MonitorControls`): `daemonViewFromServices({ …, monitors: monitorControls(services) })`.
 */
import { formatDurationMinutes } from "../src/core/schedule.ts";
import type { DaemonServices } from "../src/daemon/services.ts";
import { MonitorService } from "../src/daemon/monitor_service.ts";
import type { UrlMonitor } from "./ports.ts";

/** Monitor controls over the daemon's services; errors are thrown as one readable line. */
export function monitorControls(services: Pick<DaemonServices, "monitors" | "monitorChecker">) {
  const { monitors, monitorChecker } = services;
  return {
    monitors: (): UrlMonitor[] =>
      monitors.list().map((monitor) => ({
        id: monitor.id,
        name: monitor.name,
        url: monitor.url,
        every: formatDurationMinutes(monitor.everyMinutes),
        selector: monitor.selector || undefined,
        enabled: monitor.enabled,
        nextCheck: monitor.enabled ? monitor.nextCheckAt : undefined,
        lastCheck: monitor.lastCheckedAt,
        lastResult: MonitorService.failing(monitor)
          ? `FAILING: ${monitor.lastError}`
          : monitor.lastResult,
      })),
    async addMonitor(
      request: { url: string; every: string; selector?: string; name?: string },
    ): Promise<number> {
      const added = await monitors.add(request);
      if ("error" in added) throw new Error(`Cannot add monitor: ${added.error}`);
      return added.id;
    },
    setMonitorEnabled: (id: number, enabled: boolean): boolean =>
      monitors.setEnabled(id, enabled) !== undefined,
    async checkMonitorNow(id: number): Promise<void> {
      const monitor = monitors.store.get(id);
      if (!monitor) throw new Error(`Cannot check monitor ${id}: no such monitor`);
      await monitorChecker.check(monitor);
    },
    removeMonitor: (id: number): boolean => monitors.remove(id),
  };
}
