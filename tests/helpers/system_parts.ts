/**
 * Tests that need a system part (bubblewrap, Chromium, Dovecot, …) or a kind of machine (root,
 * Linux). No test is silently ignored:
 * - a missing part FAILS the test with one line naming it and the command that installs it,
 *   unless RADAR_TEST_SKIP names the part (or says `all`): then it is skipped;
 * - a machine that cannot run the test (not root, root, not Linux) skips it;
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

/** A condition on the machine: the test runs only where it holds, and is skipped elsewhere. */
export interface MachineCondition {
  holds: boolean;
  /** Why the test is skipped where it does not ("runs only as root: it mounts a tmpfs"). */
  unless: string;
}

/** What a test needs: system parts by name, and conditions on the machine. */
export type Need = SystemPartName | MachineCondition;

/** Runs only on Linux. */
export const onLinux: MachineCondition = {
  holds: Deno.build.os === "linux",
  unless: "runs only on Linux",
};

/** Runs only as a user other than root (root ignores folder permissions). */
export const notRoot: MachineCondition = {
  holds: Deno.uid() !== 0,
  unless: "runs only as a non-root user: root ignores file permissions",
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

/** How `needs` stand on this machine: the skip reason, the failure, or nothing (it runs). */
function verdict(needs: readonly Need[]): { skip?: string; failure?: string } {
  for (const need of needs) {
    if (typeof need !== "string" && !need.holds) return { skip: need.unless };
  }
  const optedOut = skippedParts(Deno.env.get(skipVariable));
  for (const need of needs) {
    if (typeof need !== "string") continue;
    const missing = missingPrograms(need);
    if (!missing.length) continue;
    if (optedOut.has(need)) return { skip: `needs ${need}, which is missing (${skipVariable})` };
    return { failure: missingPartMessage(need, missing) };
  }
  return {};
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
  const { skip, failure } = verdict(needs);
  if (skip) {
    recordSkip(skip, definition.name);
    return { ...definition, ignore: true };
  }
  if (failure) return { ...definition, fn: () => Promise.reject(new Error(failure)) };
  return definition;
}
