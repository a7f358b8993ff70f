/**
 * Tests that need a system part (bubblewrap, Chromium, Dovecot, …) or a kind of machine (root,
 * Linux). No test is silently ignored:
 * - a missing part FAILS the test with one line naming it and the command that installs it,
 *   unless RADAR_TEST_SKIP names the part (or says `all`): then it is skipped;
 * - a machine that cannot run the test (not root, root, not Linux) skips it;
 * - a test that needs a normal user (`normalUser`) runs as this user when it is not root, and as
 *   root it runs as the test user `deno task setup` prepares (tests/helpers/test_user.ts); where
 *   that user is not ready it fails, unless RADAR_TEST_SKIP names `test-user`;
 * every skip is appended to the file RADAR_TEST_SKIP_LOG names, and `deno task test`
 * (scripts/run_tests.ts) prints how many were skipped and why.
 */
import {
  missingPrograms,
  skippedParts,
  skipVariable,
  type SystemPartName,
  systemParts,
} from "../../scripts/system_parts.ts";
import { testUserName, testUserProblem } from "../../scripts/test_user.ts";
import { runTestAsTestUser } from "./test_user.ts";

/** A condition on the machine: the test runs only where it holds, and is skipped elsewhere. */
export interface MachineCondition {
  holds: boolean;
  /** Why the test is skipped where it does not ("runs only as root: it mounts a tmpfs"). */
  unless: string;
}

/**
 * The test runs as a normal user: as this process when it is not root; as root, its module runs
 * that test as the test user. `name`: the test to run there when it differs (forEachUser).
 */
export interface AsNormalUser {
  moduleUrl: string;
  name?: string;
}

/** What a test needs: system parts by name, conditions on the machine, a normal user. */
export type Need = SystemPartName | MachineCondition | AsNormalUser;

/** Needs a normal user: pass the test module's `import.meta.url`. */
export function normalUser(moduleUrl: string, name?: string): AsNormalUser {
  return { moduleUrl, name };
}

/** Runs only on Linux. */
export const onLinux: MachineCondition = {
  holds: Deno.build.os === "linux",
  unless: "runs only on Linux",
};

/** The skip of one test: appended to RADAR_TEST_SKIP_LOG as "reason<TAB>test name". */
function recordSkip(reason: string, name: string): void {
  const log = Deno.env.get("RADAR_TEST_SKIP_LOG");
  if (!log) return;
  Deno.writeTextFileSync(log, `${reason}\t${name.replaceAll(/\s+/g, " ")}\n`, { append: true });
}

/** The one-line failure of a test whose part is missing. */
export function missingPartMessage(part: SystemPartName, programs: string[]): string {
  const { debian, usedBy } = systemParts[part];
  const root = Deno.uid() === 0 ? "" : "sudo ";
  return `This test needs ${part} (${usedBy}); not found: ${programs.join(", ")}. ` +
    `Install it with \`${root}apt-get install ${debian}\` (or run \`deno task verify\`), ` +
    `or set ${skipVariable}=${part} to skip the tests that need it.`;
}

/** The one-line failure of a test that needs a normal user, run as root where it cannot be. */
export function testUserMessage(problem: string): string {
  return `This test runs as a normal user; as root it runs as the test user ${testUserName}, ` +
    `which is not ready here: ${problem}. Prepare it with \`deno task setup\` (as root, on ` +
    `Linux), or set ${skipVariable}=test-user to skip the tests that need it.`;
}

/** How `needs` stand on this machine: skip, failure, the user to run as, or nothing (it runs). */
function verdict(
  needs: readonly Need[],
): { skip?: string; failure?: string; runAs?: AsNormalUser } {
  for (const need of needs) {
    if (typeof need !== "string" && "holds" in need && !need.holds) return { skip: need.unless };
  }
  const optedOut = skippedParts(Deno.env.get(skipVariable));
  for (const need of needs) {
    if (typeof need !== "string") continue;
    const missing = missingPrograms(need);
    if (!missing.length) continue;
    if (optedOut.has(need)) return { skip: `needs ${need}, which is missing (${skipVariable})` };
    return { failure: missingPartMessage(need, missing) };
  }
  const user = needs.find((need): need is AsNormalUser =>
    typeof need !== "string" && "moduleUrl" in need
  );
  if (!user || Deno.uid() !== 0) return {};
  if (optedOut.has("test-user")) {
    return { skip: `runs as a normal user: the test user is not used (${skipVariable})` };
  }
  const problem = testUserProblem();
  return problem ? { failure: testUserMessage(problem) } : { runAs: user };
}

/**
 * The definition of a test that needs `needs`, for Deno.test (called at the test, so failures
 * point at its file): it runs when they are there, fails at once naming a missing part and how to
 * install it, or is skipped (and counted) as described above.
 */
export function needing(
  needs: readonly Need[],
  definition: Deno.TestDefinition,
): Deno.TestDefinition;
export function needing(
  needs: readonly Need[],
  options: Omit<Deno.TestDefinition, "fn">,
  fn: Deno.TestDefinition["fn"],
): Deno.TestDefinition;
export function needing(
  needs: readonly Need[],
  options: Omit<Deno.TestDefinition, "fn"> & { fn?: Deno.TestDefinition["fn"] },
  fn?: Deno.TestDefinition["fn"],
): Deno.TestDefinition {
  const definition = { ...options, fn: fn ?? options.fn! } as Deno.TestDefinition;
  const { skip, failure, runAs } = verdict(needs);
  if (skip) {
    recordSkip(skip, definition.name);
    return { ...definition, ignore: true };
  }
  if (failure) return { ...definition, fn: () => Promise.reject(new Error(failure)) };
  if (runAs) {
    const name = runAs.name ?? definition.name;
    return { ...definition, fn: () => runTestAsTestUser(runAs.moduleUrl, name) };
  }
  return definition;
}

/**
 * A test for what differs between root and a normal user: the definition as this process's
 * user and, when that is root, the same test once more as the test user (named "… (as a normal
 * user)"). Register each: `forEachUser(import.meta.url, needs, {…}).forEach((t) => Deno.test(t))`.
 */
export function forEachUser(
  moduleUrl: string,
  needs: readonly Need[],
  definition: Deno.TestDefinition,
): Deno.TestDefinition[] {
  const tests = [needing(needs, definition)];
  if (Deno.uid() === 0) {
    tests.push(needing([...needs, normalUser(moduleUrl, definition.name)], {
      ...definition,
      name: `${definition.name} (as a normal user)`,
    }));
  }
  return tests;
}
