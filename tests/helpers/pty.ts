/**
 * Runs `radar …` in a real pseudo-terminal (python3's pty module, `pty_session.py`: tests using it
 * need the "python3" system part) with the flags of `deno task radar`: stdin, stdout and stderr
 * are a terminal, as for a person typing.
 */
import { join } from "node:path";
import { radarEnvironment, radarFlags } from "./radar_process.ts";
import { fromFileUrl } from "../project/file_url.ts";

const driver = fromFileUrl(new URL("./pty_session.py", import.meta.url));
const root = fromFileUrl(new URL("../../", import.meta.url));

/** One step of a terminal session: wait for text in the output, or type text. */
export type PtyStep = ["expect" | "send", string];

/** What the session printed (stdout and stderr share the terminal) and the exit code. */
export interface PtyRun {
  code: number;
  text: string;
}

/**
 * Runs `radar args…` with `home` as HOME (data in home/data) in the folder `cwd` (default: home),
 * playing `steps` against it; exit code 99 when an expected text did not come within 30 s.
 */
export async function radarInPty(
  home: string,
  args: string[],
  steps: PtyStep[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<PtyRun> {
  const output = await new Deno.Command("python3", {
    args: [
      driver,
      JSON.stringify(steps),
      Deno.execPath(),
      "run",
      ...radarFlags,
      join(root, "main.ts"),
      ...args,
    ],
    cwd: options.cwd ?? home,
    env: radarEnvironment(home, { TERM: "xterm", ...options.env }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, text: decoder.decode(output.stdout) + decoder.decode(output.stderr) };
}
