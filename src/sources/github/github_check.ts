/**
 * The GitHub tick job: unread notifications, review requests and failing CI on my PRs that were
 * not queued before become heartbeat events (compact lines, as data). The first check takes a
 * baseline: one summary event instead of one per old item. Failures back off like every source.
 */
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import { type GitHubItem, githubItemLine, type GitHubLists } from "../../core/source_ports.ts";
import type { GitHubSeen } from "../source_stores.ts";

/** The health row and event source of GitHub. */
export const githubSourceName = "github";

/** What the GitHub check needs. */
interface GitHubCheckDependencies extends CheckDependencies {
  reader: GitHubLists;
  seen: GitHubSeen;
  everyMinutes: number;
}

/** Events queued one by one per kind and check; the rest become one "and N more". */
const maxEventsPerKind = 10;

const eventKinds: Record<GitHubItem["kind"], { kind: string; label: string }> = {
  notification: { kind: "github_notification", label: "notification" },
  review: { kind: "github_review_requested", label: "review requested" },
  ci: { kind: "github_ci_failing", label: "CI failing on my PR" },
};

/** The GitHub tick job. */
export class GitHubCheck {
  readonly name = "github";
  constructor(private readonly deps: GitHubCheckDependencies) {}

  /** Checks GitHub when due (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    if (!isDue(this.deps.store, githubSourceName, now)) return;
    await this.check(signal);
  }

  /** Checks now; returns the number of events queued, or the failure line. */
  async check(signal?: AbortSignal): Promise<{ queued: number; error?: string }> {
    const { deps } = this;
    let items: GitHubItem[];
    try {
      items = [
        ...await deps.reader.notifications(signal),
        ...await deps.reader.reviewRequests(signal),
        ...await deps.reader.failingPullRequests(signal),
      ];
    } catch (error) {
      const message = (error as Error).message;
      recordCheckFailure(deps, githubSourceName, deps.everyMinutes, message);
      return { queued: 0, error: message };
    }
    const at = deps.clock.now();
    const baseline = !deps.store.health(githubSourceName)?.lastOkAt;
    let queued = 0;
    deps.transaction(() => {
      const fresh = items.filter((item) => deps.seen.isNew(item.kind, item.id, item.version));
      if (baseline) queued += this.#queueBaseline(items, at);
      else {
        for (const kind of Object.keys(eventKinds) as GitHubItem["kind"][]) {
          queued += this.#queueNew(kind, fresh.filter((item) => item.kind === kind), at);
        }
      }
      for (const item of fresh) deps.seen.mark(item.kind, item.id, item.version, at);
      for (const kind of Object.keys(eventKinds)) {
        deps.seen.forgetExcept(
          kind,
          items.filter((item) => item.kind === kind).map((item) => item.id),
        );
      }
      deps.store.recordSuccess(
        githubSourceName,
        at,
        new Date(at.getTime() + deps.everyMinutes * 60_000),
      );
    });
    return { queued };
  }

  #queueBaseline(items: GitHubItem[], at: Date): number {
    if (!items.length) return 0;
    const count = (kind: GitHubItem["kind"]) => items.filter((item) => item.kind === kind).length;
    const newest = items.slice(0, 3).map(githubItemLine);
    this.deps.queue.enqueue({
      source: githubSourceName,
      kind: "github_summary",
      summary: `${count("notification")} unread notifications, ${count("review")} reviews ` +
        `requested, ${count("ci")} of my PRs failing CI; e.g. ${newest.join(" | ")}`,
      dedupeKey: "github:baseline",
    }, at);
    return 1;
  }

  #queueNew(kind: GitHubItem["kind"], fresh: GitHubItem[], at: Date): number {
    const { kind: eventKind, label } = eventKinds[kind];
    const shown = fresh.slice(0, maxEventsPerKind);
    for (const item of shown) {
      this.deps.queue.enqueue({
        source: githubSourceName,
        kind: eventKind,
        summary: githubItemLine(item),
        dedupeKey: `github:${kind}:${item.id}:${item.version}`,
      }, at);
    }
    const more = fresh.length - shown.length;
    if (more > 0) {
      this.deps.queue.enqueue({
        source: githubSourceName,
        kind: eventKind,
        summary: `and ${more} more (${label})`,
      }, at);
    }
    return shown.length + (more > 0 ? 1 : 0);
  }
}
