/**
 * Adapts the plugin system's dashboard API (src/plugins/plugin_api.ts on the plugins branch) to
 * the dashboard's `PluginsView`. The shapes below mirror that API structurally, so this file
 * needs no import from src/plugins and the composition root can pass `createPluginApi(…)` as is.
 */
import type { PluginReview, PluginSummary, PluginsView } from "./ports.ts";

/** A plugin row as the plugin API lists it. */
export interface PluginApiSummary {
  name: string;
  version: string;
  trustLevel: "sandbox" | "local" | "?";
  tools: string[];
  status: "pending_review" | "enabled" | "disabled" | "failed";
  description: string;
}

/** One plugin's details as the plugin API returns them. */
export interface PluginApiDetails {
  summary: PluginApiSummary | undefined;
  trustLevel: string;
  permissions: string[];
  warnings: string[];
  /** "+ …" / "- …" lines against the last approval; empty when new or unchanged. */
  permissionDiff: string[];
  files: Record<string, string>;
  review?: {
    source: string;
    tests: Array<{ name: string; passed: boolean; detail: string }>;
    updatedAt: string;
  };
  errors: string[];
}

/** The subset of the plugin API the dashboard uses. */
export interface PluginApiLike {
  list(): PluginApiSummary[];
  pendingReviews(): PluginApiDetails[];
  details(name: string): PluginApiDetails;
  approve(name: string): Promise<unknown>;
  reject(name: string, reason?: string): void;
  enable(name: string): Promise<void>;
  disable(name: string): Promise<void>;
}

function trustOf(level: string): "sandbox" | "local" {
  return level === "local" ? "local" : "sandbox";
}

function toSummary(row: PluginApiSummary, details: PluginApiDetails | undefined): PluginSummary {
  const status = row.status === "pending_review"
    ? "pending"
    : row.status === "failed"
    ? "failed"
    : "approved";
  return {
    name: row.name,
    version: row.version,
    description: row.description,
    trust: trustOf(row.trustLevel),
    enabled: row.status === "enabled",
    status,
    permissions: details?.permissions ?? [],
    tools: row.tools,
  };
}

function toReview(details: PluginApiDetails): PluginReview {
  const lines = details.permissionDiff;
  const added = lines.filter((line) => line.startsWith("+")).map((line) => line.slice(1).trim());
  const removed = lines.filter((line) => line.startsWith("-")).map((line) => line.slice(1).trim());
  const changed = details.review?.source === "changed";
  const tests = details.review?.tests ?? [];
  return {
    name: details.summary?.name ?? "?",
    version: details.summary?.version ?? "?",
    description: details.summary?.description ?? "",
    trust: trustOf(details.trustLevel),
    requestedAt: details.review?.updatedAt ?? "",
    files: Object.entries(details.files).map(([path, content]) => ({ path, content })),
    tests: tests.length
      ? {
        passed: tests.every((test) => test.passed),
        output: tests.map((test) => `${test.passed ? "ok  " : "FAIL"} ${test.name}: ${test.detail}`)
          .join("\n"),
      }
      : undefined,
    permissionDiff: lines.length
      ? { added, removed, unchanged: [] }
      : changed
      ? { added: [], removed: [], unchanged: details.permissions }
      : { added: details.permissions, removed: [], unchanged: [] },
    warnings: details.warnings,
    errors: details.errors,
  };
}

/** The dashboard's PluginsView over the plugin system's API. */
export function pluginsViewFromApi(api: PluginApiLike): PluginsView {
  return {
    list: () =>
      api.list().map((row) => {
        let details: PluginApiDetails | undefined;
        try {
          details = api.details(row.name);
        } catch {
          details = undefined;
        }
        return toSummary(row, details);
      }),
    pendingReviews: () => api.pendingReviews().map(toReview),
    approve: async (name) => {
      await api.approve(name);
    },
    reject: (name, reason) => api.reject(name, reason),
    setEnabled: (name, enabled) => enabled ? api.enable(name) : api.disable(name),
  };
}
