/** Whether GitHub is usable here (enabled, gh installed) and the `github` tool built on it. */
import { z } from "zod";
import type { RadarConfig } from "../../config/schema.ts";
import { failed, type Tool } from "../../core/tool.ts";
import { defineTool } from "../../core/tool_definition.ts";
import { findGh, GhCli } from "./gh_cli.ts";
import { type GitHubItem, GitHubReader, itemLine } from "./github_reader.ts";

/** The reader, or why GitHub is not available. */
export function githubAccess(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): { reader?: GitHubReader; problem?: string } {
  const settings = config.github;
  if (!settings.enabled) return { problem: "off (github.enabled is false)" };
  const path = findGh(settings.gh_path, env);
  if (!path) {
    return {
      problem:
        `the gh CLI is not installed (${settings.gh_path} not found; https://cli.github.com)`,
    };
  }
  return {
    reader: new GitHubReader(new GhCli(path, { env, timeoutMs: settings.timeout_seconds * 1000 })),
  };
}

/** The `github` tool (none when gh is not available). */
export function githubTools(
  deps: { config: RadarConfig; env: Record<string, string | undefined> },
): Tool[] {
  const { reader } = githubAccess(deps.config, deps.env);
  if (!reader) return [];
  const lists: Record<string, (signal: AbortSignal) => Promise<GitHubItem[]>> = {
    notifications: (signal) => reader.notifications(signal),
    reviews: (signal) => reader.reviewRequests(signal),
    failing_prs: (signal) => reader.failingPullRequests(signal),
  };
  return [defineTool({
    name: "github",
    effect: "none",
    description: "GitHub: unread notifications, PRs awaiting my review, or my PRs failing CI",
    keywords: ["github", "pr", "pull", "review", "ci", "notifications", "build", "failing", "gh"],
    input: z.object({
      list: z.enum(["notifications", "reviews", "failing_prs"]),
      limit: z.number().int().min(1).max(50).optional(),
    }),
    run: async ({ list, limit }, context) => {
      try {
        const items = await lists[list](context.signal);
        if (!items.length) return `No ${list.replace("_", " ")}.`;
        return items.slice(0, limit ?? 20).map((item) => `- ${itemLine(item)}`).join("\n") +
          (items.length > (limit ?? 20) ? `\n(${items.length - (limit ?? 20)} more)` : "");
      } catch (error) {
        return failed((error as Error).message);
      }
    },
  })];
}
