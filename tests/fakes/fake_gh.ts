/**
 * A fake `gh` on PATH for tests: a shell script answering `gh api notifications`,
 * `gh search prs …` and `gh pr list --repo R …` with JSON files from a state folder (recorded
 * shapes in tests/fixtures/github), logging each call, or failing like a logged-out gh.
 */
import { join } from "node:path";

/** A fake gh install. */
export interface FakeGh {
  /** The folder to put first on PATH. */
  bin: string;
  /** Where its answers and call log live. */
  state: string;
  /** The environment to run Radar's gh with. */
  env: Record<string, string>;
  /** Replaces one answer: notifications, review, mine, or pr_list_OWNER_REPO. */
  answer(name: string, value: unknown): void;
  /** Makes gh answer like a logged-out install. */
  logOut(): void;
  /** The argument lines gh was called with. */
  calls(): string[];
  dispose(): void;
}

const script = `#!/bin/sh
state="$FAKE_GH_STATE"
echo "$*" >> "$state/calls"
if [ -e "$state/logged_out" ]; then
  printf 'To get started with GitHub CLI, please run:  gh auth login\\nAlternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.\\n' >&2
  exit 4
fi
case "$1 $2" in
  "api notifications"*) cat "$state/notifications.json" ;;
  "search prs")
    case "$*" in
      *--review-requested=@me*) cat "$state/review.json" ;;
      *--author=@me*) cat "$state/mine.json" ;;
      *) echo "unknown search" >&2; exit 1 ;;
    esac ;;
  "pr list")
    repo=$(echo "$*" | sed -n 's/.*--repo \\([^ ]*\\).*/\\1/p' | tr '/' '_')
    if [ -e "$state/pr_list_$repo.json" ]; then cat "$state/pr_list_$repo.json"; else echo '[]'; fi ;;
  *) echo "unknown command: $*" >&2; exit 1 ;;
esac
`;

const fixtures = new URL("../fixtures/github/", import.meta.url).pathname;

/** Installs the fake in a temp folder with the recorded answers. */
export function installFakeGh(): FakeGh {
  const root = Deno.makeTempDirSync({ prefix: "radar-fake-gh-" });
  const bin = join(root, "bin");
  const state = join(root, "state");
  Deno.mkdirSync(bin);
  Deno.mkdirSync(state);
  Deno.writeTextFileSync(join(bin, "gh"), script, { mode: 0o755 });
  for (const entry of Deno.readDirSync(fixtures)) {
    Deno.copyFileSync(join(fixtures, entry.name), join(state, entry.name));
  }
  return {
    bin,
    state,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root, FAKE_GH_STATE: state },
    answer: (name, value) =>
      Deno.writeTextFileSync(join(state, `${name}.json`), JSON.stringify(value)),
    logOut: () => Deno.writeTextFileSync(join(state, "logged_out"), ""),
    calls: () => {
      try {
        return Deno.readTextFileSync(join(state, "calls")).trim().split("\n");
      } catch {
        return [];
      }
    },
    dispose: () => Deno.removeSync(root, { recursive: true }),
  };
}
