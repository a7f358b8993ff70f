/** `github`: unread notifications, PRs awaiting my review, my PRs failing CI (through gh). */
import { z } from "zod";
import { type GitHubItem, githubItemLine, type GitHubLists } from "../core/source_ports.ts";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";

/** github's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const githubInput = lazyValue(() =>
  z.object({
    list: z.enum(["notifications", "reviews", "failing_prs"]),
    limit: z.number().int().min(1).max(50).optional(),
  })
);

/** The `github` tool over the GitHub lists (built only when gh is available). */
export function githubTool(deps: { github: GitHubLists }): Tool {
  const reader = deps.github;
  const lists: Record<string, (signal: AbortSignal) => Promise<GitHubItem[]>> = {
    notifications: (signal) => reader.notifications(signal),
    reviews: (signal) => reader.reviewRequests(signal),
    failing_prs: (signal) => reader.failingPullRequests(signal),
  };
  return defineTool({
    name: "github",
    effect: "none",
    description: "GitHub: unread notifications, PRs awaiting my review, or my PRs failing CI",
    keywords: ["github", "pr", "pull", "review", "ci", "notifications", "build", "failing", "gh"],
    parameters: toolParameters.github,
    input: githubInput,
    run: async ({ list, limit }, context) => {
      try {
        const items = await lists[list](context.signal);
        if (!items.length) return `No ${list.replace("_", " ")}.`;
        return items.slice(0, limit ?? 20).map((item) => `- ${githubItemLine(item)}`).join("\n") +
          (items.length > (limit ?? 20) ? `\n(${items.length - (limit ?? 20)} more)` : "");
      } catch (error) {
        return failed((error as Error).message);
      }
    },
  });
}
