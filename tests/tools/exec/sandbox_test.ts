import assert from "node:assert/strict";
import {
  bubblewrapArguments,
  detectSandbox,
  sandboxedArgv,
  seatbeltProfile,
} from "../../../src/tools/exec/sandbox.ts";

const spec = {
  writableRoots: ["/Users/me/work", '/Users/me/odd "name"'],
  allowNetwork: false,
  hiddenFolders: ["/Users/me/.ssh"],
  hiddenFiles: ["/Users/me/.netrc"],
  cwd: "/Users/me/work",
};

Deno.test("bubblewrapArguments() mounts / read-only, binds roots, hides secrets, cuts the network", () => {
  const args = bubblewrapArguments(spec, "ls");
  const text = args.join(" ");
  assert.ok(text.startsWith("--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp"));
  assert.match(text, /--tmpfs \/Users\/me\/\.ssh --ro-bind \/dev\/null \/Users\/me\/\.netrc/);
  assert.match(text, /--bind \/Users\/me\/work \/Users\/me\/work/);
  assert.ok(args.includes("--unshare-net"));
  assert.ok(args.includes("--die-with-parent") && args.includes("--new-session"));
  assert.deepEqual(args.slice(-4), ["--", "/bin/sh", "-c", "ls"]);
  assert.ok(!bubblewrapArguments({ ...spec, allowNetwork: true }, "ls").includes("--unshare-net"));
});

Deno.test("seatbeltProfile() denies writes except temp and roots, hides secrets, denies network", () => {
  assert.equal(
    seatbeltProfile(spec),
    `(version 1)
(allow default)
(deny file-write*)
(allow file-write*
  (subpath "/private/tmp")
  (subpath "/private/var/folders")
  (literal "/dev/null")
  (literal "/dev/zero")
  (regex #"^/dev/fd/")
  (regex #"^/dev/tty")
  (subpath "/Users/me/work")
  (subpath "/Users/me/odd \\"name\\"")
)
(deny file-read* file-write*
  (subpath "/Users/me/.ssh")
  (literal "/Users/me/.netrc")
)
(deny network*)
(allow network* (remote unix-socket))
`,
  );
  assert.doesNotMatch(seatbeltProfile({ ...spec, allowNetwork: true }), /deny network/);
  const argv = sandboxedArgv({ kind: "sandbox-exec", path: "/usr/bin/sandbox-exec" }, spec, "ls");
  assert.deepEqual([argv[0], argv[1], ...argv.slice(3)], [
    "/usr/bin/sandbox-exec",
    "-p",
    "/bin/sh",
    "-c",
    "ls",
  ]);
});

Deno.test("detectSandbox() finds bwrap on PATH on Linux and sandbox-exec on macOS only", () => {
  const files = new Set(["/opt/bin/bwrap", "/usr/bin/sandbox-exec"]);
  const exists = (path: string) => files.has(path);
  assert.deepEqual(detectSandbox("linux", "/opt/bin:/usr/bin", exists), {
    kind: "bubblewrap",
    path: "/opt/bin/bwrap",
  });
  assert.equal(detectSandbox("linux", "/usr/local/bin", () => false), undefined);
  assert.deepEqual(detectSandbox("darwin", "", exists), {
    kind: "sandbox-exec",
    path: "/usr/bin/sandbox-exec",
  });
  assert.equal(detectSandbox("windows", "", exists), undefined);
});
