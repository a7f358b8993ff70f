/**
 * The machine step of `deno task setup` that prepares the test user (scripts/test_user.ts) when
 * setup runs as root on Linux: creates `radar-test` once (useradd -M, no login shell), gives it an
 * owner-only home with a copy of this deno and of Deno's npm cache (filled first by the caches
 * step, scripts/test_caches.ts), lets it through to this checkout, and then runs the caches step
 * again as the test user, so its own cache holds everything a test running as it loads.
 * Idempotent: a second run copies only what changed.
 */
import { dirname, join } from "node:path";
import { findProgram } from "./system_parts.ts";
import { CacheError, cacheTestPackages } from "./test_caches.ts";
import {
  asTestUserArgv,
  passwdEntry,
  testUserDeno,
  testUserDenoDir,
  testUserHome,
  testUserName,
} from "./test_user.ts";

/** How the step reports: one line, or one line and a stop. */
export interface StepOutput {
  say(line: string): void;
  stop(line: string): never;
}

const decoder = new TextDecoder();
/** System programs are looked up here too: setup may run with a PATH that lacks them. */
const systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const optOut = `or set RADAR_TEST_SKIP=test-user to skip the tests that need a normal user`;

async function run(
  argv: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number; output: string }> {
  const result = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = (decoder.decode(result.stderr) || decoder.decode(result.stdout)).trim();
  return { code: result.code, output };
}

/** Runs `argv` or stops with one line naming it and its first line of complaint. */
async function must(output: StepOutput, argv: string[], cwd?: string): Promise<string> {
  const result = await run(argv, { cwd });
  if (result.code !== 0) {
    const why = result.output.split("\n")[0] || `exit ${result.code}`;
    output.stop(`preparing the test user ${testUserName}: \`${argv.join(" ")}\` failed: ${why}`);
  }
  return result.output;
}

function program(name: string): string | undefined {
  return findProgram(name, systemPath);
}

function groupExists(name: string): boolean {
  try {
    return Deno.readTextFileSync("/etc/group").split("\n").some((line) =>
      line.startsWith(`${name}:`)
    );
  } catch {
    return false;
  }
}

function sameFile(source: string, copy: string): boolean {
  try {
    const [a, b] = [Deno.statSync(source), Deno.statSync(copy)];
    return a.size === b.size && a.mtime?.getTime() === b.mtime?.getTime();
  } catch {
    return false;
  }
}

/** Where Deno keeps its caches for this setup (DENO_DIR, else deno's default). */
async function denoDir(output: StepOutput): Promise<string> {
  const info = JSON.parse(await must(output, [Deno.execPath(), "info", "--json"]));
  return info.denoDir as string;
}

/** True when the test user can pass through `folder`. */
async function passes(folder: string): Promise<boolean> {
  const argv = asTestUserArgv(
    [program("test") ?? "/usr/bin/test", "-x", folder],
    program("setpriv"),
  );
  return (await run(argv)).code === 0;
}

/** setfacl, installing Debian's acl when it is missing (undefined: it cannot be had). */
async function setfacl(output: StepOutput): Promise<string | undefined> {
  const apt = program("apt-get");
  if (!program("setfacl") && apt) {
    await must(output, [apt, "install", "-y", "-qq", "--no-install-recommends", "acl"]);
  }
  return program("setfacl");
}

/**
 * Lets the test user through every folder on the way to `checkout` that is closed to it (an ACL
 * for it alone, never wider permissions); returns those folders.
 */
async function openTheWay(output: StepOutput, checkout: string): Promise<string[]> {
  const chain: string[] = [];
  for (let current = checkout; current !== dirname(current); current = dirname(current)) {
    chain.unshift(current);
  }
  const opened: string[] = [];
  for (const folder of ["/", ...chain]) {
    if (await passes(folder)) continue;
    const program = await setfacl(output);
    if (!program) {
      output.stop(
        `the test user ${testUserName} cannot reach this checkout (${folder} is closed to ` +
          `other users); let it through with \`setfacl -m u:${testUserName}:x ${folder}\` ` +
          `(Debian package acl), ${optOut}`,
      );
    }
    await must(output, [program, "-m", `u:${testUserName}:x`, folder]);
    opened.push(folder);
  }
  return opened;
}

/**
 * The step: nothing when not root (the tests run as this user) or when RADAR_TEST_SKIP names
 * test-user; otherwise prepares the test user or stops with one line saying why it cannot.
 */
export async function prepareTestUser(
  output: StepOutput,
  options: { optedOut: boolean; checkout: string },
): Promise<void> {
  if (Deno.uid() !== 0) return;
  if (options.optedOut) {
    output.say(
      `not preparing the test user ${testUserName} (RADAR_TEST_SKIP): ` +
        "the tests that need a normal user are skipped",
    );
    return;
  }
  if (Deno.build.os !== "linux") {
    output.stop(`cannot make the test user ${testUserName} here (not Linux); ${optOut}`);
  }
  const tools = ["useradd", "setpriv", "install", "cp", "chown"];
  const missing = tools.filter((name) => !program(name));
  if (missing.length) {
    output.stop(
      `cannot make the test user ${testUserName}: ${missing.join(", ")} not found ` +
        `(apt-get install passwd util-linux coreutils), ${optOut}`,
    );
  }
  const found = (name: string) => program(name)!;
  const created = !passwdEntry(testUserName);
  if (created) {
    const shell = program("nologin") ?? "/bin/false";
    const group = groupExists(testUserName) ? ["-g", testUserName] : ["-U"];
    await must(output, [
      found("useradd"),
      "-M",
      "-d",
      testUserHome,
      "-s",
      shell,
      "-c",
      "Radar tests",
      ...group,
      testUserName,
    ]);
  }
  const owner = ["-o", testUserName, "-g", String(passwdEntry(testUserName)!.gid)];
  await must(output, [found("install"), "-d", "-m", "0700", ...owner, testUserHome]);
  if (!sameFile(Deno.execPath(), testUserDeno)) {
    await must(output, [found("install"), "-d", ...owner, dirname(testUserDeno)]);
    await must(output, [found("install"), "-p", "-m", "0755", Deno.execPath(), testUserDeno]);
  }
  // Deno's npm cache (filled by the caches step before this one), copied (only what changed).
  await must(output, [found("install"), "-d", dirname(testUserDenoDir), testUserDenoDir]);
  await must(output, [
    found("cp"),
    "-a",
    "-u",
    join(await denoDir(output), "npm"),
    testUserDenoDir,
  ]);
  await must(output, [found("chown"), "-R", `${testUserName}:`, testUserHome]);
  const opened = await openTheWay(output, options.checkout.replace(/(.)\/+$/, "$1"));
  await cacheAsTestUser(output, options.checkout);
  const uid = passwdEntry(testUserName)!.uid;
  output.say(
    `test user ${testUserName} (uid ${uid}) ${created ? "created" : "ready"} for the tests that ` +
      `need a normal user: deno copied to ${testUserHome}, its Deno cache filled` +
      (opened.length ? `; let through ${opened.join(", ")} (ACL)` : ""),
  );
}

/**
 * The caches step as the test user, into its own Deno cache: whatever the copy lacks is fetched
 * now, not by a test later.
 */
async function cacheAsTestUser(output: StepOutput, checkout: string): Promise<void> {
  const scratch = join(testUserHome, ".cache", "radar-setup");
  const uid = passwdEntry(testUserName)!;
  Deno.mkdirSync(scratch, { recursive: true });
  Deno.chownSync(scratch, uid.uid, uid.gid);
  try {
    await cacheTestPackages(testUserDeno, checkout, {
      wrap: (argv) => asTestUserArgv(argv, program("setpriv")),
      env: { HOME: testUserHome, DENO_DIR: testUserDenoDir },
      scratch,
    });
  } catch (error) {
    if (!(error instanceof CacheError)) throw error;
    output.stop(`preparing the test user ${testUserName}'s Deno cache: ${error.message}`);
  } finally {
    Deno.removeSync(scratch, { recursive: true });
  }
}
