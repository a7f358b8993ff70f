/**
 * The skill folders of a running Radar. They follow `skills.dirs` of the one running config object:
 * after a live config change (`radar.applyLiveConfig`, the dashboard's /config) `refresh()` works
 * them out again and tells its listeners (the skill catalog, the daemon's folder watcher).
 * `skills.enabled` is not live: it decides at start whether `use_skill` exists at all.
 */
import { type SkillRoot, skillRoots } from "./skill_roots.ts";

/** What the roots are computed from (the running config, changed in place by live reloads). */
interface SkillRootsConfig {
  skills?: { enabled: boolean; dirs: string[] };
}

/** The current skill folders and who to tell when they change. */
export class LiveSkillRoots {
  #roots: SkillRoot[];
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly config: SkillRootsConfig,
    private readonly dataDir: string,
    private readonly env: Record<string, string | undefined>,
    private readonly cwd?: string,
  ) {
    this.#roots = this.#compute();
  }

  /** The folders searched now, lowest precedence first. */
  get current(): SkillRoot[] {
    return this.#roots;
  }

  /** Works the folders out again from the config; when they changed, tells every listener. */
  refresh(): boolean {
    const next = this.#compute();
    if (JSON.stringify(next) === JSON.stringify(this.#roots)) return false;
    this.#roots = next;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch { /* one listener's failure never stops the others */ }
    }
    return true;
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #compute(): SkillRoot[] {
    return skillRoots(this.config, this.dataDir, this.env, this.cwd);
  }
}
