/**
 * The `gh` CLI as Radar runs it: found on PATH (or `github.gh_path`), run without a shell with
 * the user's environment (gh keeps its own login), a time-out that kills it, capped output, and
 * every failure as one readable line ("gh is not logged in …"). Its output is untrusted JSON.
 */
import { existsSync } from "node:fs";
import { runProcess } from "../../adapters/os/run_process.ts";

/** Bytes of gh output read at most (a page of notifications is far smaller). */
const maxOutputBytes = 4 * 1024 * 1024;

/** Why gh failed, as one line a person can act on. */
function ghProblem(stderr: string, code: number): string {
  const text = stderr.trim();
  if (/gh auth login|not logged in|authentication required/i.test(text)) {
    return "gh is not logged in (run: gh auth login)";
  }
  if (/could not resolve|connect|network|timeout|dial tcp/i.test(text)) {
    return `gh cannot reach GitHub: ${firstLine(text)}`;
  }
  return `gh failed (exit ${code})${text ? `: ${firstLine(text)}` : ""}`;
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim())?.trim().slice(0, 200) ?? "";
}

/** Runs gh commands that print JSON. */
export class GhCli {
  constructor(
    private readonly path: string,
    private readonly options: { env: Record<string, string | undefined>; timeoutMs: number },
  ) {}

  /** Runs `gh args…` and parses its stdout; throws one readable line on any failure. */
  async json(args: string[], signal?: AbortSignal): Promise<unknown> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.options.env)) {
      if (value !== undefined) env[name] = value;
    }
    env.GH_PROMPT_DISABLED = "1";
    env.GH_NO_UPDATE_NOTIFIER = "1";
    env.NO_COLOR = "1";
    let result;
    try {
      result = await runProcess({
        argv: [this.path, ...args],
        cwd: env.HOME && existsSync(env.HOME) ? env.HOME : "/",
        env,
        timeoutMs: this.options.timeoutMs,
        maxOutputBytes,
        signal,
      });
    } catch (error) {
      throw new Error(`cannot run gh: ${firstLine((error as Error).message)}`);
    }
    if (result.timedOut) {
      throw new Error(`gh did not answer within ${this.options.timeoutMs / 1000} s`);
    }
    if (result.code !== 0) throw new Error(ghProblem(result.stderr, result.code));
    if (result.stdoutCut) throw new Error("gh printed more than 4 MB; not read");
    try {
      return JSON.parse(result.stdout || "null");
    } catch {
      throw new Error(`gh printed something that is not JSON: ${firstLine(result.stdout)}`);
    }
  }
}
