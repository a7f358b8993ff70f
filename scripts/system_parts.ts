/**
 * The parts of the machine the test suite needs beyond Deno: the same table for the setup
 * (`scripts/setup_tests.ts` installs what is missing) and for the tests that need a part
 * (`tests/helpers/system_parts.ts` fails them, or skips them when RADAR_TEST_SKIP names it).
 */

/** A system part, found by its programs. */
export interface SystemPart {
  /** What needs it. */
  usedBy: string;
  /** The Debian package that provides it. */
  debian: string;
  /** Programs that must all be there: a bare name is searched in PATH, a path is checked as is. */
  programs: readonly string[];
}

/** Every system part the suite needs, by the name RADAR_TEST_SKIP uses. */
export const systemParts = {
  bubblewrap: { usedBy: "the exec sandbox", debian: "bubblewrap", programs: ["bwrap"] },
  chromium: {
    usedBy: "the dashboard's browser tests and the browser tool's",
    debian: "chromium",
    // playwright-core starts exactly this file.
    programs: ["/usr/bin/chromium"],
  },
  dovecot: {
    usedBy: "the email tests (a real IMAP server on loopback)",
    debian: "dovecot-imapd",
    programs: ["dovecot"],
  },
  postfix: {
    usedBy: "the email channel tests (a real SMTP server on loopback, delivering to Dovecot)",
    debian: "postfix",
    programs: ["postfix", "/usr/lib/postfix/sbin/master"],
  },
  radicale: {
    usedBy: "the calendar tests (a real CalDAV server on loopback)",
    debian: "radicale",
    programs: ["radicale"],
  },
  python3: { usedBy: "the terminal (pty) tests", debian: "python3", programs: ["python3"] },
  "util-linux": {
    usedBy: "the process limit tests",
    debian: "util-linux",
    programs: ["prlimit", "setpriv"],
  },
  node: { usedBy: "the npx-started MCP server test", debian: "npm", programs: ["npx"] },
  curl: { usedBy: "the install script tests (downloads)", debian: "curl", programs: ["curl"] },
} as const satisfies Record<string, SystemPart>;

/** The name of a system part. */
export type SystemPartName = keyof typeof systemParts;

/** Every part's name. */
export const systemPartNames = Object.keys(systemParts) as SystemPartName[];

/** Folders searched besides PATH: a user's PATH often lacks the sbin folders (dovecot). */
const extraFolders = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Where `program` is (a bare name searched in PATH and the sbin folders); undefined if absent. */
export function findProgram(
  program: string,
  path = Deno.env.get("PATH") ?? "",
): string | undefined {
  if (program.startsWith("/")) return isFile(program) ? program : undefined;
  const folders = [...path.split(":").filter((folder) => folder.startsWith("/")), ...extraFolders];
  return folders.map((folder) => `${folder}/${program}`).find(isFile);
}

/** The programs of `part` that cannot be found. */
export function missingPrograms(part: SystemPartName, path?: string): string[] {
  return systemParts[part].programs.filter((program) => !findProgram(program, path));
}

/**
 * What RADAR_TEST_SKIP may name besides the system parts: `test-user`, the unprivileged user that
 * setup prepares as root for the tests that need a normal user (scripts/test_user.ts).
 */
export const preparedParts = {
  "test-user": {
    usedBy: "the tests that run as a normal user (root ignores file permissions and RLIMIT_NPROC)",
  },
} as const;

/** A name RADAR_TEST_SKIP accepts (besides `all`). */
export type SkippableName = SystemPartName | keyof typeof preparedParts;

/** Every name RADAR_TEST_SKIP accepts (besides `all`). */
export const skippableNames: SkippableName[] = [
  ...systemPartNames,
  ...Object.keys(preparedParts) as Array<keyof typeof preparedParts>,
];

/** The parts named by RADAR_TEST_SKIP ("all" names every one). */
export function skippedParts(value: string | undefined): Set<SkippableName> {
  const names = (value ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  if (names.includes("all")) return new Set(skippableNames);
  return new Set(
    names.filter((name): name is SkippableName => (skippableNames as string[]).includes(name)),
  );
}

/** The variable that opts out of tests whose system part is missing. */
export const skipVariable = "RADAR_TEST_SKIP";
