/**
 * The floors `deno task bench lean` measures Radar against, in the same run and with the same
 * flags: bare Deno doing the same kind of work with the npm packages every Radar process needs and
 * nothing of Radar's own. Each floor is a small script written into a temp folder and run with the
 * project's deno.json (so the packages resolve to the pinned versions).
 */
import { join } from "node:path";
import { radarFlags } from "../tests/helpers/radar_process.ts";
import { daemonEnvironment, daemonV8Flags } from "../src/daemon/daemon_command.ts";
import { denoDir } from "./soak.ts";

const config = new URL("../deno.json", import.meta.url).pathname;

/** The daemon floor: the packages of an idle daemon, node:sqlite open, Deno.serve and Deno.cron. */
export const daemonFloorScript = (dir: string) =>
  `import "commander";
import "zod";
import "yaml";
import "croner";
import "hono";
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(join(dir, "floor.db"))});
db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (x)");
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
Deno.cron("floor", "* * * * *", () => {});
`;

/** The CLI floor: the packages every command parses with, then one line out. */
export const cliFloorScript = () =>
  `import "commander";
import "zod";
import "yaml";
console.log("0.0.0");
`;

/** The `ask` floor: the CLI floor plus node:sqlite open and one POST to the model server. */
export const askFloorScript = (dir: string) =>
  `import "commander";
import "zod";
import "yaml";
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(join(dir, "ask-floor.db"))});
db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (x)");
const response = await fetch(Deno.env.get("RADAR_LLM_BASE_URL") + "/api/chat", {
  method: "POST",
  body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }),
});
await response.text();
`;

/** Writes `text` as a script in `dir` and returns its path. */
export function writeScript(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  Deno.writeTextFileSync(path, text);
  return path;
}

/** A floor script run as Radar's CLI runs (`deno task radar`'s flags). */
export function cliFloorCommand(
  script: string,
  env: Record<string, string> = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...radarFlags, "--config", config, script],
    env: { DENO_DIR: denoDir(), ...env },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
}

/** A floor script run as the daemon runs (its V8 flags and environment), plus `extraFlags`. */
export function daemonFloorCommand(script: string, extraFlags: string[] = []): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--unstable-cron",
      "--config",
      config,
      ...daemonV8Flags,
      ...extraFlags,
      script,
    ],
    env: { ...daemonEnvironment, DENO_DIR: denoDir() },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
}
