/**
 * GitHub through gh: unread notifications, open PRs waiting for my review, and my open PRs whose
 * CI fails. gh's JSON is parsed leniently but bounded (titles cut, lists capped): it is data from
 * the network, shown to the model only as untrusted text.
 */
import { z } from "zod";
import { lazyValue } from "../../core/zod_issues.ts";
import type { GitHubItem, GitHubLists } from "../../core/source_ports.ts";
import type { GhCli } from "./gh_cli.ts";

/** Most items read per kind. */
const maxItems = 50;
/** Most repositories whose PRs are asked about their CI in one check. */
const maxRepos = 10;

/** What gh answers, bounded; built on the first read, not while Radar starts. */
const schemas = lazyValue(() => {
  const text = (max: number) => z.string().transform((value) => value.slice(0, max));
  const notification = z.object({
    id: z.union([z.string(), z.number()]).transform(String),
    reason: text(40).catch(""),
    updated_at: text(40).catch(""),
    subject: z.object({
      title: text(300).catch(""),
      type: text(40).catch(""),
      url: text(500).nullish(),
    }),
    repository: z.object({ full_name: text(200) }),
  });
  const searchedPr = z.object({
    number: z.number().int(),
    title: text(300).catch(""),
    url: text(500),
    updatedAt: text(40).catch(""),
    repository: z.object({ nameWithOwner: text(200) }),
    author: z.object({ login: text(100) }).nullish(),
  });
  const rollupEntry = z.object({
    name: text(120).nullish(),
    context: text(120).nullish(),
    conclusion: text(40).nullish(),
    state: text(40).nullish(),
  });
  const listedPr = z.object({
    number: z.number().int(),
    title: text(300).catch(""),
    url: text(500),
    statusCheckRollup: z.array(rollupEntry).nullish(),
  });
  return { notification, searchedPr, listedPr };
});

/** Conclusions and states that mean a check failed. */
const failedStates = new Set([
  "FAILURE",
  "ERROR",
  "TIMED_OUT",
  "CANCELLED",
  "ACTION_REQUIRED",
  "STARTUP_FAILURE",
]);

function list<T>(schema: z.ZodType<T>, value: unknown, what: string): T[] {
  if (!Array.isArray(value)) throw new Error(`gh returned no list of ${what}`);
  return value.slice(0, maxItems).flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The GitHub questions Radar asks. */
export class GitHubReader implements GitHubLists {
  constructor(private readonly gh: GhCli) {}

  /** Unread notifications (newest first). */
  async notifications(signal?: AbortSignal): Promise<GitHubItem[]> {
    const raw = await this.gh.json(["api", "notifications?per_page=50"], signal);
    return list(schemas().notification, raw, "notifications").map((entry) => ({
      kind: "notification",
      id: entry.id,
      version: entry.updated_at,
      repo: entry.repository.full_name,
      title: entry.subject.title,
      detail: `${entry.reason.replace(/_/g, " ")} · ${entry.subject.type}`,
      url: htmlUrl(entry.subject.url ?? "", entry.repository.full_name),
    }));
  }

  /** Open PRs where my review is requested. */
  async reviewRequests(signal?: AbortSignal): Promise<GitHubItem[]> {
    const raw = await this.gh.json([
      "search",
      "prs",
      "--review-requested=@me",
      "--state=open",
      "--limit=50",
      "--json",
      "number,title,url,updatedAt,repository,author",
    ], signal);
    return list(schemas().searchedPr, raw, "pull requests").map((pr) => ({
      kind: "review",
      id: pr.url,
      version: pr.updatedAt,
      repo: pr.repository.nameWithOwner,
      title: pr.title,
      detail: `#${pr.number}${pr.author ? ` by ${pr.author.login}` : ""}`,
      url: pr.url,
    }));
  }

  /** My open PRs with at least one failing check. */
  async failingPullRequests(signal?: AbortSignal): Promise<GitHubItem[]> {
    const mine = list(
      schemas().searchedPr,
      await this.gh.json([
        "search",
        "prs",
        "--author=@me",
        "--state=open",
        "--limit=50",
        "--json",
        "number,title,url,updatedAt,repository",
      ], signal),
      "pull requests",
    );
    const repos = [...new Set(mine.map((pr) => pr.repository.nameWithOwner))].slice(0, maxRepos);
    const failing: GitHubItem[] = [];
    for (const repo of repos) {
      const raw = await this.gh.json([
        "pr",
        "list",
        "--repo",
        repo,
        "--author",
        "@me",
        "--state",
        "open",
        "--json",
        "number,title,url,statusCheckRollup",
      ], signal);
      for (const pr of list(schemas().listedPr, raw, "pull requests")) {
        const failed = (pr.statusCheckRollup ?? [])
          .filter((check) =>
            failedStates.has((check.conclusion || check.state || "").toUpperCase())
          )
          .map((check) => check.name || check.context || "check");
        if (!failed.length) continue;
        const names = [...new Set(failed)].sort();
        failing.push({
          kind: "ci",
          id: pr.url,
          version: names.join(","),
          repo,
          title: pr.title,
          detail: `#${pr.number} failing: ${names.slice(0, 5).join(", ")}` +
            (names.length > 5 ? ` and ${names.length - 5} more` : ""),
          url: pr.url,
        });
      }
    }
    return failing;
  }
}

/** The web address of an API subject URL (api.github.com/repos/o/r/pulls/5 → github.com/o/r/pull/5). */
function htmlUrl(apiUrl: string, repo: string): string {
  const match = apiUrl.match(
    /^https:\/\/api\.github\.com\/repos\/([^/]+\/[^/]+)\/(pulls|issues)\/(\d+)$/,
  );
  if (match) {
    return `https://github.com/${match[1]}/${match[2] === "pulls" ? "pull" : "issues"}/${match[3]}`;
  }
  return `https://github.com/${repo}`;
}
