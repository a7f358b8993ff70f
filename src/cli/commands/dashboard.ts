/**
 * `radar dashboard`: a fresh one-time login link for the running daemon's dashboard, printed and
 * opened in the browser when one is available. The CLI reads the dashboard token (owner-only,
 * in the data folder) and asks the daemon for a code with `Authorization: Bearer`; the link
 * carries only the code, which works once, for five minutes. It needs a terminal: a login link is
 * full control, never handed to a script or a model's exec.
 */
import type { Command } from "commander";
import { runningDaemon } from "../../daemon/lock_file.ts";
import { dashboardToken } from "../../../web/dashboard_token.ts";
import type { CliContext } from "../context.ts";
import { RadarError } from "../../core/errors.ts";

/** The address a client on this machine reaches a daemon at ("0.0.0.0" → 127.0.0.1). */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === "0.0.0.0") parsed.hostname = "127.0.0.1";
  if (parsed.hostname === "[::]") parsed.hostname = "[::1]";
  return parsed.href;
}

/** Asks the dashboard at `url` for a one-time login link. */
export async function requestLoginLink(url: string, token: string): Promise<string> {
  const base = reachableUrl(url);
  let response: Response;
  try {
    response = await fetch(new URL("/login/code", base), {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new RadarError(`Cannot reach the dashboard at ${base}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    const reason = (await response.text()).split("\n")[0].slice(0, 200);
    throw new RadarError(
      `The dashboard at ${base} refused a login link (HTTP ${response.status}: ${reason})`,
    );
  }
  const { code } = await response.json() as { code?: unknown };
  if (typeof code !== "string") throw new RadarError(`The dashboard at ${base} sent no code`);
  return `${new URL("/login", base).href}?code=${encodeURIComponent(code)}`;
}

/** The program that opens a URL in the user's browser here, if there is one. */
function browserOpener(env: Record<string, string | undefined>): string | undefined {
  if (Deno.build.os === "darwin") return "open";
  if (Deno.build.os === "linux" && (env.DISPLAY || env.WAYLAND_DISPLAY)) return "xdg-open";
  return undefined;
}

async function openInBrowser(
  link: string,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  const opener = browserOpener(env);
  if (!opener) return false;
  try {
    const child = new Deno.Command(opener, {
      args: [link],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    return (await child.status).success;
  } catch {
    return false;
  }
}

/** Registers `dashboard`. */
export function registerDashboard(program: Command, context: CliContext): void {
  program.command("dashboard")
    .description("open the running daemon's dashboard (prints a one-time login link)")
    .option("--print", "only print the link, do not open a browser")
    .action(async (options: { print?: boolean }) => {
      // A login link is full control of Radar: control_commands.ts refuses this command for
      // scripts and under exec (scripts use the token as Authorization: Bearer).
      const loaded = await context.config();
      const daemon = runningDaemon(loaded.dataDir);
      if (!daemon?.url) {
        throw new RadarError(
          "Radar is not running: start it with `radar start` (or `radar serve`), then run " +
            "`radar dashboard` again",
        );
      }
      const token = dashboardToken(loaded.dataDir, loaded.config.web.auth_token);
      const link = await requestLoginLink(daemon.url, token);
      context.io.stdout(`${link}\n`);
      if (!options.print && await openInBrowser(link, context.io.env)) {
        context.io.stderr("Opened in your browser (the link works once, for 5 minutes).\n");
      } else {
        context.io.stderr("Open this link in your browser: it works once, for 5 minutes.\n");
      }
    });
}
