/**
 * `deno task setup` (the first half of `deno task verify`): makes this machine able to run the
 * whole suite. Every system part in scripts/system_parts.ts is found, or installed from Debian
 * with apt-get (through sudo when not root), or named in RADAR_TEST_SKIP by the user. Otherwise
 * it stops at once with one line naming what is missing and the command that installs it.
 * Exit codes: 0 ready, 1 something is missing, 2 RADAR_TEST_SKIP names an unknown part.
 */
import { fileURLToPath } from "node:url";
import {
  findProgram,
  missingPrograms,
  skippableNames,
  skippedParts,
  skipVariable,
  type SystemPartName,
  systemPartNames,
  systemParts,
} from "./system_parts.ts";
import { prepareTestUser } from "./test_user_setup.ts";
import { CacheError, cacheTestPackages, fillNpxCache, npxForTests } from "./test_caches.ts";

const say = (line: string) => console.log(`setup: ${line}`);

/** Stops with one line and `code`. */
function stop(line: string, code = 1): never {
  console.error(`setup: ${line}`);
  Deno.exit(code);
}

/** The parts missing here, with the programs not found. */
function missingParts(): Array<[SystemPartName, string[]]> {
  return systemPartNames.map((part) => [part, missingPrograms(part)] as [SystemPartName, string[]])
    .filter(([, programs]) => programs.length > 0);
}

function describeMissing(parts: Array<[SystemPartName, string[]]>): string {
  return parts.map(([part, programs]) =>
    programs.length === 1 && programs[0] === part ? part : `${part} (${programs.join(", ")})`
  ).join(", ");
}

/** The apt-get command line, with sudo when not root; undefined when it cannot run here. */
function aptGet(): string[] | undefined {
  const apt = findProgram("apt-get");
  if (!apt) return undefined;
  if (Deno.uid() === 0) return [apt];
  const sudo = findProgram("sudo");
  return sudo ? [sudo, apt] : undefined;
}

async function run(command: string[]): Promise<number> {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

/** Installs the Debian packages of `parts`, or stops saying how to. */
async function installPackages(parts: Array<[SystemPartName, string[]]>): Promise<void> {
  const packages = [...new Set(parts.map(([part]) => systemParts[part].debian))];
  const names = parts.map(([part]) => part).join(",");
  const root = Deno.uid() === 0 ? "" : "sudo ";
  const command = `${root}apt-get install ${packages.join(" ")}`;
  const apt = aptGet();
  if (!apt) {
    stop(
      `missing ${describeMissing(parts)}; install with \`${command}\`, ` +
        `or set ${skipVariable}=${names} to skip the tests that need them`,
    );
  }
  say(`installing ${packages.join(" ")} (${command})`);
  const steps = [
    [...apt, "update", "-qq"],
    [...apt, "install", "-y", "-qq", "--no-install-recommends", ...packages],
  ];
  for (const step of steps) {
    const code = await run(step);
    if (code !== 0) {
      stop(`\`${root}apt-get ${step.slice(apt.length).join(" ")}\` failed (exit ${code})`);
    }
  }
}

/** What RADAR_TEST_SKIP names (validated first). */
const optedOut = skippedParts(Deno.env.get(skipVariable));

/**
 * Every npm package the suite loads, in the caches it reads (scripts/test_caches.ts): Deno's,
 * the MCP servers' offline resolution, npx's.
 */
async function cachePackages(checkout: string): Promise<void> {
  const scratch = Deno.makeTempDirSync({ prefix: "radar-setup-" });
  try {
    const what = await cacheTestPackages(Deno.execPath(), checkout, {
      wrap: (argv) => argv,
      env: {},
      scratch,
    });
    say(`cached ${what}`);
  } catch (error) {
    if (!(error instanceof CacheError)) throw error;
    stop(`caching the tests' npm packages: ${error.message}`);
  } finally {
    Deno.removeSync(scratch, { recursive: true });
  }
  const npx = npxForTests(optedOut.has("node"));
  if (!npx) return;
  const problem = await fillNpxCache(npx);
  if (problem) {
    stop(
      `filling npx's cache for the npx-started MCP server test: ${problem}; ` +
        `${skipVariable}=node skips it`,
    );
  }
}

/**
 * Steps that prepare the machine beyond packages, after the packages are in: the package caches,
 * then, as root on Linux, the unprivileged test user for the tests that need a normal user
 * (scripts/test_user_setup.ts).
 */
const machineSteps: Array<() => Promise<void>> = [
  () => cachePackages(fileURLToPath(new URL("..", import.meta.url))),
  () =>
    prepareTestUser({ say, stop }, {
      optedOut: optedOut.has("test-user"),
      checkout: fileURLToPath(new URL("..", import.meta.url)),
    }),
];

if (import.meta.main) {
  const given = (Deno.env.get(skipVariable) ?? "").split(",").map((name) => name.trim())
    .filter(Boolean);
  const unknown = given.filter((name) =>
    name !== "all" && !(skippableNames as string[]).includes(name)
  );
  if (unknown.length) {
    stop(
      `${skipVariable} names ${unknown.join(", ")}, which is not a system part (known: all, ` +
        `${skippableNames.join(", ")})`,
      2,
    );
  }
  const missing = missingParts();
  const skipped = missing.filter(([part]) => optedOut.has(part));
  if (skipped.length) {
    say(`skipping the tests that need ${describeMissing(skipped)} (${skipVariable})`);
  }
  const needed = missing.filter(([part]) => !optedOut.has(part));
  if (needed.length) {
    await installPackages(needed);
    const still = missingParts().filter(([part]) => !optedOut.has(part));
    if (still.length) stop(`still missing after apt-get: ${describeMissing(still)}`);
  }
  for (const step of machineSteps) await step();
  say(
    skipped.length
      ? "ready (the skipped parts aside)"
      : "ready: every system part the tests need is here",
  );
}
