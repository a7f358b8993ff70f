/**
 * The test command on a machine that lacks parts: `deno task setup` installs them with apt-get or
 * stops with one line naming them and the install command; a test whose part is missing fails
 * saying so unless RADAR_TEST_SKIP names the part; `deno task test` prints what it skipped.
 * "Missing" is made real with a PATH that lacks the programs (and a fake apt-get).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { skipSummary } from "../../scripts/run_tests.ts";
import { fromFileUrl } from "./file_url.ts";
import { type MachineCondition, needing } from "../helpers/system_parts.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const decoder = new TextDecoder();
/** Found outside PATH by the setup too (/usr/sbin), or at a fixed path: present either way. */
const alwaysFound = ["dovecot", "chromium", "postfix"];

async function deno(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { HOME: Deno.env.get("HOME") ?? "/root", NO_COLOR: "1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

const setup = (env: Record<string, string>) => deno(["task", "-q", "setup"], env);

/** A folder with a fake apt-get that logs its arguments and, on install, "installs" `programs`. */
function fakeAptFolder(programs: string[]): { folder: string; log: string } {
  const folder = Deno.makeTempDirSync({ prefix: "radar-fake-apt-" });
  const log = join(folder, "apt.log");
  const stubs = programs.map((name) =>
    `printf '#!/bin/sh\\n' > "${folder}/${name}"; /bin/chmod +x "${folder}/${name}"`
  ).join("\n");
  Deno.writeTextFileSync(
    join(folder, "apt-get"),
    `#!/bin/sh\necho "$*" >> "${log}"\nif [ "$1" = install ]; then\n:\n${stubs}\nfi\n`,
    { mode: 0o755 },
  );
  return { folder, log };
}

Deno.test("setup stops at once with one line naming what is missing and the command that installs it", async () => {
  const empty = Deno.makeTempDirSync({ prefix: "radar-empty-path-" });
  try {
    const run = await setup({ PATH: empty });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    const root = Deno.uid() === 0 ? "" : "sudo ";
    assert.equal(
      lines[0],
      "setup: missing bubblewrap (bwrap), radicale, python3, util-linux (prlimit, setpriv), " +
        `node (npx), curl; install with \`${root}apt-get install bubblewrap radicale python3 ` +
        "util-linux npm curl`, or set " +
        "RADAR_TEST_SKIP=bubblewrap,radicale,python3,util-linux,node,curl " +
        "to skip the tests that need them",
    );
    for (const part of alwaysFound) assert.doesNotMatch(lines[0], new RegExp(part));

    const optedOut = await setup({ PATH: empty, RADAR_TEST_SKIP: "all" });
    assert.equal(optedOut.code, 0, optedOut.stderr);
    assert.match(optedOut.stdout, /^setup: skipping the tests that need bubblewrap \(bwrap\), /);
    if (Deno.uid() === 0) {
      assert.match(
        optedOut.stdout,
        /\nsetup: not preparing the test user radar-test \(RADAR_TEST_SKIP\): the tests that need a normal user are skipped\n/,
      );
    }
    const typo = await setup({ PATH: empty, RADAR_TEST_SKIP: "bubblewrap,chromeium" });
    assert.equal(typo.code, 2);
    assert.match(
      typo.stderr,
      /^setup: RADAR_TEST_SKIP names chromeium, which is not a system part/,
    );
  } finally {
    Deno.removeSync(empty, { recursive: true });
  }
});

const asRoot: MachineCondition = {
  holds: Deno.uid() === 0,
  unless: "runs only as root: as another user apt-get goes through sudo, which asks for a password",
};

Deno.test(needing(
  [asRoot],
  {
    name:
      "setup installs the missing Debian packages with apt-get, and says so when that did not help",
  },
  async () => {
    const installing = fakeAptFolder([
      "bwrap",
      "radicale",
      "python3",
      "prlimit",
      "setpriv",
      "npx",
      "curl",
    ]);
    const useless = fakeAptFolder([]);
    try {
      let run = await setup({ PATH: installing.folder });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        Deno.readTextFileSync(installing.log),
        "update -qq\ninstall -y -qq --no-install-recommends bubblewrap radicale python3 " +
          "util-linux npm curl\n",
      );
      assert.match(
        run.stdout,
        /^setup: installing bubblewrap radicale python3 util-linux npm curl/,
      );
      assert.match(
        run.stdout,
        /\nsetup: test user radar-test \(uid \d+\) (created|ready) for the tests that need a normal user: deno copied to \/home\/radar-test, its Deno cache filled(; let through .*)?\n/,
      );
      assert.match(run.stdout, /setup: ready: every system part the tests need is here\n$/);

      run = await setup({ PATH: useless.folder, RADAR_TEST_SKIP: "node,util-linux,curl" });
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr,
        "setup: still missing after apt-get: bubblewrap (bwrap), radicale, python3\n",
      );
    } finally {
      Deno.removeSync(installing.folder, { recursive: true });
      Deno.removeSync(useless.folder, { recursive: true });
    }
  },
));

Deno.test("a test whose part is missing fails saying how to install it, or is skipped and counted when opted out", async () => {
  const empty = Deno.makeTempDirSync({ prefix: "radar-empty-path-" });
  const fixture = "tests/fixtures/system_parts/needs_parts.ts";
  const test = (env: Record<string, string>) =>
    deno(["task", "-q", "test", fixture], { PATH: empty, ...env });
  try {
    let run = await test({});
    assert.equal(run.code, 1, "a missing part is a failure, not a silent skip");
    const output = run.stdout + run.stderr;
    assert.match(
      output,
      /This test needs bubblewrap \(the exec sandbox\); not found: bwrap\. Install it with `(sudo )?apt-get install bubblewrap` \(or run `deno task verify`\), or set RADAR_TEST_SKIP=bubblewrap to skip the tests that need it\./,
    );
    assert.match(output, /1 passed .*1 failed .*1 ignored/);
    assert.match(
      output,
      /needs bubblewrap => \.\/tests\/fixtures\/system_parts\/needs_parts\.ts:\d+/,
    );
    assert.match(output, /Skipped 1 test:\n {2}1 × runs only on a machine that is not this one\n/);

    run = await test({ RADAR_TEST_SKIP: "bubblewrap" });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed .*0 failed .*2 ignored/);
    assert.match(
      run.stdout,
      /Skipped 2 tests:\n {2}1 × needs bubblewrap, which is missing \(RADAR_TEST_SKIP\)\n {2}1 × runs only on a machine that is not this one\n/,
    );
  } finally {
    Deno.removeSync(empty, { recursive: true });
  }
});

Deno.test("a test that needs a normal user runs as one (as root: as the test user), or fails saying how to get one unless opted out", async () => {
  const fixture = "tests/fixtures/system_parts/needs_normal_user.ts";
  const test = (env: Record<string, string>) => deno(["task", "-q", "test", fixture], env);
  let run = await test({ PATH: Deno.env.get("PATH") ?? "" });
  // The fixture's test fails when it runs as root: it passes in a suite that runs as root.
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /1 passed .*0 failed/);
  assert.match(run.stdout, /Skipped no tests\./);
  if (Deno.uid() !== 0) return; // a normal user runs it directly; nothing below applies
  const empty = Deno.makeTempDirSync({ prefix: "radar-empty-path-" });
  try {
    run = await test({ PATH: empty });
    assert.equal(run.code, 1, "a test user that is not ready is a failure, not a skip");
    assert.match(
      run.stdout + run.stderr,
      /This test runs as a normal user; as root it runs as the test user radar-test, which is not ready here: setpriv \(util-linux\) is missing\. Prepare it with `deno task setup` \(as root, on Linux\), or set RADAR_TEST_SKIP=test-user to skip the tests that need it\./,
    );
    run = await test({ PATH: empty, RADAR_TEST_SKIP: "test-user" });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /Skipped 1 test:\n {2}1 × runs as a normal user: the test user is not used \(RADAR_TEST_SKIP\)\n/,
    );
  } finally {
    Deno.removeSync(empty, { recursive: true });
  }
});

Deno.test("skipSummary() counts the skips by reason, most first", () => {
  assert.equal(skipSummary(""), "Skipped no tests.");
  assert.equal(
    skipSummary("root only\ta\nneeds chromium\tb\nroot only\tc\n"),
    "Skipped 3 tests:\n  2 × root only\n  1 × needs chromium",
  );
});

Deno.test("no test ignores itself: every skip goes through needing() (counted, with its reason)", () => {
  const offenders: string[] = [];
  const walk = (folder: string) => {
    for (const entry of Deno.readDirSync(folder)) {
      const path = join(folder, entry.name);
      if (entry.isDirectory && !["output", "fixtures"].includes(entry.name)) walk(path);
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      if (path.endsWith(join("helpers", "system_parts.ts"))) continue;
      const text = Deno.readTextFileSync(path);
      if (/\bignore:\s/.test(text) || /SKIPPED/.test(text)) offenders.push(path.slice(root.length));
    }
  };
  walk(join(root, "tests"));
  assert.deepEqual(offenders.filter((path) => !path.endsWith("test_setup_test.ts")), []);
});
