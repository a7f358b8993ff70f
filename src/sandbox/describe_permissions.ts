/** Plain-words descriptions of plugin permissions and permission changes, with warnings. */
import type { PluginManifest } from "./manifest.ts";
import type { GrantDiff, NarrowedGrant, PluginGrant } from "./permissions.ts";
import { grantHost, isPrivateName } from "./network_policy.ts";

/** Shows a path with the home folder as `~`. */
export function displayPath(path: string, home: string): string {
  if (home && home !== "/" && (path === home || path.startsWith(`${home}/`))) {
    return `~${path.slice(home.length)}`;
  }
  return path;
}

/** One line per permission, e.g. "read files under ~/Documents". Empty grant: one line saying so. */
export function describeGrant(grant: PluginGrant, home: string): string[] {
  const lines: string[] = [];
  for (const path of grant.read) lines.push(`read files under ${displayPath(path, home)}`);
  for (const path of grant.write) {
    lines.push(`create, change and delete files under ${displayPath(path, home)}`);
  }
  for (const host of grant.net) {
    lines.push(
      /:\d+$/.test(host) || /^\[.*\]:\d+$/.test(host)
        ? `connect to ${host}`
        : `connect to ${host} on any port`,
    );
  }
  for (const name of grant.env) lines.push(`read the environment variable ${name}`);
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

/** "+ connect to …" / "- read files under …" lines for a permission change. */
export function describeDiff(diff: GrantDiff, home: string): string[] {
  const empty = (grant: PluginGrant) =>
    !grant.read.length && !grant.write.length && !grant.net.length && !grant.env.length;
  const lines: string[] = [];
  if (!empty(diff.added)) lines.push(...describeGrant(diff.added, home).map((l) => `+ ${l}`));
  if (!empty(diff.removed)) lines.push(...describeGrant(diff.removed, home).map((l) => `- ${l}`));
  return lines;
}

/** What a manifest's hooks and prompt variables can see and do, in plain words. */
export function describeCapabilities(manifest: PluginManifest): string[] {
  const lines: string[] = [];
  if (manifest.capabilities.includes("hook")) {
    for (const hook of manifest.hooks) {
      lines.push(
        hook.hook_point === "pre_tool_call"
          ? `see the name and arguments of every tool call before it runs, and block it (${hook.function}, priority ${hook.priority})`
          : `see the name, arguments and result of every tool call, and add a note to the result (${hook.function})`,
      );
    }
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
