/**
 * Runs things as the test user (scripts/test_user.ts, prepared by `deno task setup`) from a suite
 * that runs as root: a program, or one test of a module — which is how `needing([normalUser(…)])`
 * (tests/helpers/system_parts.ts) runs a test that needs a normal user, and the Radar subprocesses
 * it starts run as that user too. Each run gets a fresh home owned by the user, outside /tmp (the
 * exec sandbox's /tmp is private), as HOME, TMPDIR's parent and the tool tests' output folder.
 */
import { join } from "node:path";
import {
  asTestUserArgv,
  passwdEntry,
  testUserDeno,
  testUserDenoDir,
  testUserName,
} from "../../scripts/test_user.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const decoder = new TextDecoder();

/** What a finished run printed. */
export interface UserRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables passed on to the user's run besides PATH (what tests read from the machine). */
const passedOn = ["TZ", "LANG", "LC_ALL", "RADAR_TEST_SKIP"];

/**
 * Runs `argv` as the test user (a leading "deno" is its copy of deno) with a cleared environment:
 * PATH, HOME (a fresh folder of its own, removed afterwards), TMPDIR, RADAR_TEST_OUTPUT,
 * DENO_DIR (its cache) and `env`. Only as root.
 */
export async function runAsTestUser(
  argv: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<UserRun> {
  const user = passwdEntry(testUserName);
  if (!user) throw new Error(`there is no user ${testUserName}: run \`deno task setup\` as root`);
  const home = Deno.makeTempDirSync({ dir: "/var/tmp", prefix: `${testUserName}-home-` });
  try {
    for (const folder of [home, join(home, "tmp"), join(home, "output")]) {
      Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
      Deno.chownSync(folder, user.uid, user.gid);
    }
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      TMPDIR: join(home, "tmp"),
      RADAR_TEST_OUTPUT: join(home, "output"),
      DENO_DIR: testUserDenoDir,
      NO_COLOR: "1",
    };
    for (const name of passedOn) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const command = asTestUserArgv(argv[0] === "deno" ? [testUserDeno, ...argv.slice(1)] : argv);
    const output = await new Deno.Command(command[0], {
      args: command.slice(1),
      cwd: options.cwd ?? root,
      env: { ...env, ...options.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

/** The flags of `deno task test:deno` (the suite's), read from deno.json. */
function testFlags(): string[] {
  const task: string =
    JSON.parse(Deno.readTextFileSync(join(root, "deno.json"))).tasks["test:deno"];
  const words = task.trim().split(/\s+/);
  return words.slice(words.indexOf("test") + 1);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Runs the test named `name` in the module at `moduleUrl` as the test user (the suite's flags,
 * without a second type check); resolves when exactly that test passed there, otherwise throws
 * with the run's output (a test that did not run there is a failure, never a pass).
 */
export async function runTestAsTestUser(moduleUrl: string, name: string): Promise<void> {
  const module = fromFileUrl(moduleUrl);
  const run = await runAsTestUser([
    "deno",
    "test",
    ...testFlags(),
    "--no-check",
    `--filter=/^${escapeRegExp(name)}$/`,
    module,
  ]);
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.code !== 0 || !/^ok \| 1 passed \| 0 failed\b/m.test(output)) {
    throw new Error(
      `As the test user ${testUserName}, "${name}" did not pass (exit ${run.code}):\n${output}`,
    );
  }
}
