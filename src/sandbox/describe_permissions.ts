/** Plain-words descriptions of plugin permissions and permission changes, with warnings. */
import type { PluginManifest } from "./manifest.ts";
import type { Permission, PermissionDiff } from "../core/plugin_state.ts";
import { diffGrants, type NarrowedGrant, type PluginGrant } from "./permissions.ts";
import { grantHost, isPrivateName } from "./network_policy.ts";
import { displayPath } from "../config/paths.ts";

/** Each permission of a grant as data with its plain words, e.g. "read files under ~/Documents". */
function permissionsOf(grant: PluginGrant, home: string): Permission[] {
  return [
    ...grant.read.map((target) => ({
      kind: "read" as const,
      target,
      description: `read files under ${displayPath(target, home)}`,
    })),
    ...grant.write.map((target) => ({
      kind: "write" as const,
      target,
      description: `create, change and delete files under ${displayPath(target, home)}`,
    })),
    ...grant.net.map((target) => ({
      kind: "net" as const,
      target,
      description: /:\d+$/.test(target) || /^\[.*\]:\d+$/.test(target)
        ? `connect to ${target}`
        : `connect to ${target} on any port`,
    })),
    ...grant.env.map((target) => ({
      kind: "env" as const,
      target,
      description: `read the environment variable ${target}`,
    })),
  ];
}

/** One line per permission. Empty grant: one line saying so. */
export function describeGrant(grant: PluginGrant, home: string): string[] {
  const lines = permissionsOf(grant, home).map((permission) => permission.description);
  if (!lines.length) lines.push("no access to files, network or environment (computation only)");
  return lines;
}

/** Warnings a reviewer should see before approving this grant. */
export function grantWarnings(grant: PluginGrant, home: string): string[] {
  const warnings: string[] = [];
  for (const path of [...grant.read, ...grant.write]) {
    if (path === "/" || path === home) {
      warnings.push(
        `WARNING: ${displayPath(path, home)} is your whole ${
          path === "/" ? "disk" : "home folder"
        }`,
      );
    }
  }
  for (const host of grant.net) {
    if (isPrivateName(grantHost(host))) {
      warnings.push(`WARNING: ${host} is on this machine or your local network`);
    }
  }
  for (const name of grant.env) {
    if (/TOKEN|KEY|SECRET|PASSWORD/i.test(name)) {
      warnings.push(`WARNING: ${name} looks like a secret`);
    }
  }
  if (grant.net.length) {
    warnings.push(
      "Note: a granted name that resolves to this machine or your network is refused (when the plugin starts; under `deno run` also on every connection)",
    );
  }
  return warnings;
}

/** A requested grant against the approved one (none: a new plugin, everything is added). */
export function permissionDiff(
  approved: PluginGrant | undefined,
  requested: PluginGrant,
  home: string,
): PermissionDiff {
  const requestedPermissions = permissionsOf(requested, home);
  if (!approved) {
    return { sinceApproval: false, added: requestedPermissions, removed: [], unchanged: [] };
  }
  const diff = diffGrants(approved, requested);
  const added = permissionsOf(diff.added, home);
  const isAdded = (permission: Permission) =>
    added.some((other) => other.kind === permission.kind && other.target === permission.target);
  return {
    sinceApproval: true,
    added,
    removed: permissionsOf(diff.removed, home),
    unchanged: requestedPermissions.filter((permission) => !isAdded(permission)),
  };
}

/** What a hook at each point can see and do, in plain words. */
const hookPointPowers: Record<PluginManifest["hooks"][number]["hook_point"], string> = {
  pre_tool_call: "see the name and arguments of every tool call before it runs, and block it",
  post_tool_call:
    "see the name, arguments and result of every tool call, and add a note to the result",
  filter_tools: "see which tools are offered to the model, and take some away",
  pre_agent_run: "see every message sent to Radar (chat, ask, tasks, heartbeats), and block it",
  post_agent_run: "see every answer of Radar, and replace it",
  pre_memory_store: "see every fact before it is remembered, and block it",
  post_memory_search: "see memory searches and the facts found, and drop or reorder them",
  pre_heartbeat: "see when a heartbeat starts (how many events), and block it",
  post_heartbeat: "see how each heartbeat ended",
};

/** What a manifest's hooks and prompt variables can see and do, in plain words. */
export function describeCapabilities(manifest: PluginManifest): string[] {
  const lines: string[] = [];
  if (manifest.capabilities.includes("hook")) {
    for (const hook of manifest.hooks) {
      lines.push(
        `${
          hookPointPowers[hook.hook_point]
        } (${hook.function}, ${hook.hook_point}, priority ${hook.priority})`,
      );
    }
  }
  const widget = manifest.widget;
  if (manifest.capabilities.includes("widget") && widget) {
    lines.push(
      `show a box "${widget.title}" on the dashboard home (${widget.function}, ${
        widget.refresh_interval ? `refreshed every ${widget.refresh_interval} s` : "on page load"
      }): plain text, label/value rows and http(s) links, escaped; never HTML or scripts`,
    );
  }
  if (manifest.capabilities.includes("personality") && manifest.personalities.length) {
    lines.push(
      `offer personalities (instructions for the model when you choose one): ${
        manifest.personalities.join(", ")
      }`,
    );
  }
  if (manifest.capabilities.includes("prompt_variables") && manifest.prompt_variables.length) {
    lines.push(
      `add values to every request's system prompt, shown to the model as data: ${
        manifest.prompt_variables.map((variable) => variable.name).join(", ")
      }`,
    );
  }
  return lines;
}

/**
 * Plain words for what Radar cuts out of a grant, e.g. "NOTE: Radar never gives plugins ~/.ssh
 * (credentials) or Radar's data folder (Radar's own state): they are cut out of what it may read".
 */
export function narrowingNotes(narrowed: NarrowedGrant, home: string): string[] {
  const notes: string[] = [];
  for (const kind of ["read", "write"] as const) {
    const cut = narrowed.cut[kind];
    if (!cut.length) continue;
    const names = cut.slice(0, 8).map((location) =>
      `${
        location.label.startsWith("Radar's") ? location.label : displayPath(location.path, home)
      } (${location.why})`
    );
    const more = cut.length > 8 ? ` and ${cut.length - 8} more` : "";
    notes.push(
      `NOTE: Radar never lets plugins ${kind === "read" ? "read" : "change"} ${
        names.join(", ")
      }${more}: ${cut.length > 1 ? "they are" : "it is"} cut out of this grant, even once approved`,
    );
  }
  return notes;
}
