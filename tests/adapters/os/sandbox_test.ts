import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { protectedLocations } from "../../../src/core/protected_paths.ts";
import { runProcess } from "../../../src/adapters/os/run_process.ts";
import {
  bubblewrapArguments,
  detectSandbox,
  prlimitArguments,
  sandboxedArgv,
  type SandboxSpec,
  seatbeltProfile,
} from "../../../src/adapters/os/sandbox.ts";
import { processList } from "../../tools/exec/exec_harness.ts";
import { needing, onLinux } from "../../helpers/system_parts.ts";

const limits = { processes: 64, cpuSeconds: 31, memoryBytes: 1 << 30 };
const spec: SandboxSpec = {
  writableRoots: ["/Users/me/.local/state/radar/scratch", '/Users/me/odd "name"'],
  allowNetwork: false,
  hiddenFolders: ["/Users/me/.ssh"],
  hiddenFiles: ["/Users/me/.netrc"],
  cwd: "/Users/me/work",
  limits,
};

Deno.test("bubblewrapArguments(): read-only /, roots bound, secrets hidden after them, own PID namespace, no network, limits", () => {
  const args = bubblewrapArguments(spec, "ls", "/usr/bin/prlimit");
  const text = args.join(" ");
  assert.ok(text.startsWith("--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp"));
  assert.match(
    text,
    /--bind \/Users\/me\/odd "name" \/Users\/me\/odd "name" --tmpfs \/Users\/me\/\.ssh --ro-bind \/dev\/null \/Users\/me\/\.netrc/,
  );
  for (const flag of ["--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session"]) {
    assert.ok(args.includes(flag), flag);
  }
  assert.ok(!args.includes("--cap-drop"));
  assert.deepEqual(
    args.slice(-11),
    [
      "--chdir",
      "/Users/me/work",
      "--",
      "/usr/bin/prlimit",
      "--nproc=64:64",
      "--cpu=31:31",
      "--data=1073741824:1073741824",
      "--",
      "/bin/sh",
      "-c",
      "ls",
    ],
  );
  assert.ok(!bubblewrapArguments({ ...spec, allowNetwork: true }, "ls").includes("--unshare-net"));
  assert.ok(bubblewrapArguments({ ...spec, asRoot: true }, "ls").includes("--cap-drop"));
  assert.deepEqual(prlimitArguments({ ...limits, memoryBytes: 0 }), [
    "--nproc=64:64",
    "--cpu=31:31",
  ]);
});

Deno.test("seatbeltProfile(): generated from the roots and the shared protected list", () => {
  const locations = protectedLocations({
    home: "/Users/me",
    dataDir: "/Users/me/Library/Application Support/radar",
    configDir: "/Users/me/.config/radar",
    cacheDir: "/Users/me/Library/Caches/radar",
  }).filter((location) => location.kind !== "startup");
  const profile = seatbeltProfile({
    ...spec,
    hiddenFolders: locations.map((location) => location.path),
    hiddenFiles: [],
  });
  assert.ok(profile.startsWith(`(version 1)
(allow default)
(deny file-write*)
(allow file-write*
  (subpath "/private/tmp")
  (subpath "/private/var/folders")
  (literal "/dev/null")
  (literal "/dev/zero")
  (regex #"^/dev/fd/")
  (regex #"^/dev/tty")
  (subpath "/Users/me/.local/state/radar/scratch")
  (subpath "/Users/me/odd \\"name\\"")
)
(deny file-read* file-write*
`));
  for (
    const path of [
      "/Users/me/.ssh",
      "/Users/me/.pgpass",
      "/Users/me/.vault-token",
      "/Users/me/Library/Keychains",
      "/Users/me/Library/Application Support/Google/Chrome",
      "/Users/me/Library/Application Support/radar",
      "/Users/me/Library/Caches/radar",
    ]
  ) {
    assert.ok(profile.includes(`  (subpath "${path}")\n`), path);
  }
  assert.ok(
    profile.endsWith(
      ")\n(deny signal)\n(allow signal (target same-sandbox))\n(deny lsopen)\n(deny appleevent-send)\n(deny network*)\n",
    ),
  );
  assert.doesNotMatch(seatbeltProfile({ ...spec, allowNetwork: true }), /deny network/);
  const argv = sandboxedArgv({ kind: "sandbox-exec", path: "/usr/bin/sandbox-exec" }, spec, "ls");
  assert.deepEqual([argv[0], argv[1], argv[3], argv[4], argv[6]], [
    "/usr/bin/sandbox-exec",
    "-p",
    "/bin/sh",
    "-c",
    "ls",
  ]);
  assert.equal(argv[5], 'ulimit -t 31 && ulimit -d 1048576 && exec /bin/sh -c "$0"');
});

Deno.test("detectSandbox(): bwrap and prlimit on Linux, sandbox-exec on macOS, nothing elsewhere", () => {
  const files = new Set(["/opt/bin/bwrap", "/usr/bin/prlimit", "/usr/bin/sandbox-exec"]);
  const exists = (path: string) => files.has(path);
  assert.deepEqual(detectSandbox("linux", "/opt/bin:relative", exists), {
    kind: "bubblewrap",
    path: "/opt/bin/bwrap",
    prlimit: "/usr/bin/prlimit",
  });
  assert.equal(detectSandbox("linux", "/usr/local/bin", () => false), undefined);
  assert.deepEqual(detectSandbox("darwin", "", exists), {
    kind: "sandbox-exec",
    path: "/usr/bin/sandbox-exec",
  });
  assert.equal(detectSandbox("windows", "", exists), undefined);
});

async function processesOf(uid: number): Promise<number> {
  return (await processList()).filter((process) => process.uid === uid).length;
}

Deno.test(needing([onLinux, "bubblewrap", "util-linux"], {
  name: "a fork bomb inside bubblewrap stops at RLIMIT_NPROC and is reaped whole",
}, async () => {
  // The kernel does not apply RLIMIT_NPROC to root, so as root the bomb runs as nobody.
  const program = detectSandbox("linux", Deno.env.get("PATH"), existsSync)!;
  const nobody = 65534;
  const asNobody = Deno.uid() === 0
    ? ["/usr/bin/setpriv", `--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups"]
    : [];
  const uid = Deno.uid() === 0 ? nobody : Deno.uid()!;
  const before = await processesOf(uid);
  const bomb: SandboxSpec = {
    writableRoots: [],
    allowNetwork: false,
    hiddenFolders: [],
    hiddenFiles: [],
    cwd: "/",
    limits: { processes: 40, cpuSeconds: 5, memoryBytes: 256 << 20 },
  };
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) peak = Math.max(peak, (await processesOf(uid)) - before);
  })();
  const started = performance.now();
  const result = await runProcess({
    argv: [...asNobody, ...sandboxedArgv(program, bomb, "f(){ f|f& };f; sleep 1")],
    cwd: "/",
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 2500,
    maxOutputBytes: 2000,
  });
  sampling = false;
  await sampler;
  assert.ok(performance.now() - started < 6000, "ended within the timeout");
  assert.ok(peak <= 45, `at most the limit at once (bwrap included), saw ${peak}`);
  assert.match(result.stderr, /fork|Resource temporarily unavailable/i);
  for (let attempt = 0; attempt < 50 && (await processesOf(uid)) > before; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal((await processesOf(uid)) - before, 0, "nothing of the bomb is left");
}));

Deno.test("bubblewrapArguments(): a readable folder under /tmp is bound back read-only, others stay under /", () => {
  const args = bubblewrapArguments(
    { ...spec, readableRoots: ["/tmp/checkout/program", "/srv/reference"] },
    "ls",
  );
  const bound = args.flatMap((arg, index) => arg === "--ro-bind" ? [args[index + 1]] : []);
  assert.ok(bound.includes("/tmp/checkout/program"), args.join(" "));
  assert.ok(!bound.includes("/srv/reference"), "the read-only root already shows it");
  assert.ok(
    args.indexOf("/tmp/checkout/program") > args.indexOf("--tmpfs"),
    "bound after the private /tmp is mounted",
  );
});
