/**
 * The plugin read/write API for the dashboard and the CLI: list plugins, pending reviews with
 * their code, test results and permission diff (in plain words), and the review decisions.
 * Every function returns plain JSON-serialisable data; errors are `PluginError`s with one
 * readable line. The dashboard (web/) should call only these.
 */
import {
  describeCapabilities,
  describeGrant,
  grantWarnings,
  narrowingNotes,
  permissionDiff,
} from "../sandbox/describe_permissions.ts";
import { checkGrantedNames, type HostLookup } from "../sandbox/network_policy.ts";
import { displayPath } from "../config/paths.ts";
import { escapingLinks, linkScanLimits } from "./grant_links.ts";
import { systemLookup } from "../sandbox/plugin_process.ts";
import type { PluginApi, PluginDetails } from "../core/plugin_state.ts";
import type { PluginManager } from "./plugin_manager.ts";
import type { PluginRecords } from "./plugin_records.ts";

/** Builds the API over a manager; `refresh` re-registers tools after a decision. */
export function createPluginApi(
  manager: PluginManager,
  records: PluginRecords,
  refresh: () => Promise<unknown>,
  lookup: HostLookup = systemLookup,
): PluginApi {
  const details = (name: string): PluginDetails => {
    const { folder, errors, location } = manager.inventory.read(name);
    const summary = manager.inventory.list().find((row) => row.name === name);
    if (!folder) {
      return {
        summary,
        location,
        trustLevel: "?",
        author: "?",
        permissions: [],
        warnings: [],
        permissionDiff: { sinceApproval: false, added: [], removed: [], unchanged: [] },
        files: {},
        review: records.getReview(name),
        errors,
      };
    }
    const grant = manager.inventory.requestedGrantOf(folder);
    const approved = records.latestApproval(name);
    return {
      summary,
      location,
      trustLevel: folder.manifest.trust_level,
      author: folder.manifest.author,
      permissions: [
        ...describeGrant(grant, manager.inventory.home),
        ...describeCapabilities(folder.manifest),
      ],
      warnings: [
        ...(folder.manifest.trust_level === "local"
          ? ["WARNING: local trust: this plugin gets the permissions below once you approve"]
          : []),
        ...grantWarnings(grant, manager.inventory.home),
        ...narrowingNotes(manager.inventory.narrowed(grant), manager.inventory.home),
        ...linkWarnings(grant, manager.inventory.home),
      ],
      permissionDiff: permissionDiff(approved?.grant, grant, manager.inventory.home),
      files: folder.files,
      review: records.getReview(name),
      errors,
    };
  };
  return {
    list: () => manager.inventory.list(),
    pendingReviews: () =>
      manager.inventory.list().filter((row) => row.status === "pending_review").map((row) =>
        details(row.name)
      ),
    details,
    async networkWarnings(name) {
      const { folder } = manager.inventory.read(name);
      if (!folder) return [];
      const check = await checkGrantedNames(manager.inventory.requestedGrantOf(folder).net, lookup);
      return check.problems.map((problem) => `WARNING: ${problem}`);
    },
    async approve(name) {
      manager.approve(name, "user");
      await refresh();
      return manager.inventory.list().find((row) => row.name === name);
    },
    reject: (name, reason) => manager.reject(name, reason),
    async enable(name) {
      manager.enable(name);
      await refresh();
    },
    async disable(name) {
      manager.disable(name);
      await refresh();
    },
  };
}

/** Warnings about symbolic links that lead out of the granted folders. */
function linkWarnings(grant: Parameters<typeof escapingLinks>[0], home: string): string[] {
  if (!grant.read.length && !grant.write.length) return [];
  const { links, complete } = escapingLinks(grant);
  const lines = links.slice(0, 10).map((link) =>
    `WARNING: ${displayPath(link.link, home)} links to ${
      displayPath(link.target, home)
    }, outside the grant: the plugin can follow it`
  );
  if (links.length > 10) lines.push(`WARNING: ${links.length - 10} more such links`);
  if (!complete) {
    lines.push(
      `Note: only the first ${linkScanLimits.maxEntries} entries (${linkScanLimits.maxDepth} levels) of the granted folders were checked for such links`,
    );
  }
  return lines;
}
