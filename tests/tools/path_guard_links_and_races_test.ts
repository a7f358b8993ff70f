/** The path guard against /proc, hard links, look-alikes, and real check/open races. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openCheckedForRead, PathChangedError } from "../../src/adapters/os/checked_open.ts";
import { PathGuard } from "../../src/adapters/os/path_guard.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { call, tempHome, toolDeps, writableHome } from "./tool_harness.ts";

function setUp() {
  const home = tempHome();
  const h = home.home;
  Deno.mkdirSync(join(h, ".ssh"));
  Deno.writeTextFileSync(join(h, ".ssh/id_rsa"), "PRIVATE KEY");
  Deno.mkdirSync(join(h, "docs"));
  Deno.writeTextFileSync(join(h, "docs/a.txt"), "hello");
  const guard = new PathGuard({ home: h, cwd: join(h, "docs"), dataDir: home.dataDir });
  return { home, h, guard };
}

Deno.test("PathGuard refuses process files under /proc (environment, memory, fds)", () => {
  const { home, guard, h } = setUp();
  try {
    const refused = [
      "/proc/self/environ",
      `/proc/${Deno.pid}/environ`,
      "/proc/self/mem",
      "/proc/self/cmdline",
      "/proc/thread-self/environ",
    ];
    if (Deno.build.os === "linux") {
      for (const path of refused) {
        const verdict = guard.check(path, "read");
        assert.equal(verdict.ok, false, path);
        if (!verdict.ok) assert.match(verdict.reason, /\/proc\/<pid>|process/, path);
      }
      const viaRoot = guard.check(`/proc/self/root${h}/.ssh/id_rsa`, "read");
      assert.equal(viaRoot.ok, false);
      // Resolved to ~/.ssh, or (when Deno may not read /proc links) refused as a /proc path.
      if (!viaRoot.ok) assert.match(viaRoot.reason, /rule (~\/\.ssh|\/proc\/<pid>)/);
      assert.equal(guard.check("/proc/cpuinfo", "read").ok, true, "system info stays readable");
    }
  } finally {
    home.dispose();
  }
});

Deno.test("PathGuard: look-alike names are different files, never the protected one", () => {
  const { home, guard, h } = setUp();
  try {
    // Cyrillic ѕ, a zero-width space, a trailing dot: on Linux and macOS these name other
    // folders; the guard resolves them to those (missing) folders, never to ~/.ssh.
    for (const path of ["~/.\u0455sh/id_rsa", "~/.ssh\u200b/id_rsa", "~/.ssh./id_rsa"]) {
      const verdict = guard.check(path, "read");
      assert.ok(verdict.ok, path);
      if (verdict.ok) assert.notEqual(verdict.path, join(h, ".ssh/id_rsa"));
    }
    for (const path of ["~/.SSH/id_rsa", "~/.ssh/id_rsa/", "~/docs/../.ssh/./id_rsa"]) {
      assert.equal(guard.check(path, "read").ok, false, path);
    }
  } finally {
    home.dispose();
  }
});

Deno.test("read_file refuses a hard link to a protected file (found by inode after open)", async () => {
  const { home, h } = setUp();
  try {
    Deno.linkSync(join(h, ".ssh/id_rsa"), join(h, "docs/notes.txt"));
    Deno.writeTextFileSync(join(h, "docs/plain.txt"), "ok");
    Deno.linkSync(join(h, "docs/plain.txt"), join(h, "docs/plain-link.txt"));
    const tool = readFileTool(toolDeps(home));
    const result = await call(tool, { path: "~/docs/notes.txt" });
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /hard link to a file protected by rule ~\/\.ssh/);
    assert.ok(!result.text.includes("PRIVATE KEY"));
    const ordinary = await call(tool, { path: "~/docs/plain-link.txt" });
    assert.equal(ordinary.outcome, "ok", "hard links between ordinary files still read");
    const append = await call(writeFileTool(toolDeps(home, writableHome)), {
      path: "~/docs/notes.txt",
      content: "x",
      append: true,
    });
    assert.equal(append.outcome, "refused");
    assert.equal(Deno.readTextFileSync(join(h, ".ssh/id_rsa")), "PRIVATE KEY");
  } finally {
    home.dispose();
  }
});

Deno.test("openCheckedForRead() catches a swap during the open, even when swapped back", async () => {
  const { home, guard, h } = setUp();
  const file = join(h, "docs/a.txt");
  const swapToSecret = () => {
    Deno.renameSync(file, join(h, "docs/a.saved"));
    Deno.symlinkSync(join(h, ".ssh/id_rsa"), file);
  };
  const swapBack = () => {
    Deno.removeSync(file);
    Deno.renameSync(join(h, "docs/a.saved"), file);
  };
  try {
    const verdict = guard.check("~/docs/a.txt", "read");
    assert.ok(verdict.ok);
    await assert.rejects(
      () => openCheckedForRead(verdict.path, { guard, beforeOpen: swapToSecret }),
      PathChangedError,
    );
    swapBack();
    await assert.rejects(
      () =>
        openCheckedForRead(verdict.path, { guard, beforeOpen: swapToSecret, afterOpen: swapBack }),
      PathChangedError,
      "the opened file was the secret even though the path looks unchanged now",
    );
    const opened = await openCheckedForRead(verdict.path, { guard });
    opened.close();
  } finally {
    home.dispose();
  }
});

Deno.test("read_file never returns the secret while another process flips the file to a symlink", async () => {
  const { home, h } = setUp();
  const flipper = new Deno.Command("sh", {
    args: [
      "-c",
      `cd "${h}/docs" && end=$(($(date +%s) + 3)); while [ $(date +%s) -lt $end ]; do
        ln -s "${h}/.ssh/id_rsa" link.tmp && mv -f link.tmp a.txt
        printf hello > plain.tmp && mv -f plain.tmp a.txt
      done`,
    ],
  }).spawn();
  try {
    const tool = readFileTool(toolDeps(home));
    const outcomes = new Map<string, number>();
    const started = performance.now();
    while (performance.now() - started < 1500) {
      const result = await call(tool, { path: "~/docs/a.txt" });
      assert.ok(!result.text.includes("PRIVATE KEY"), `leaked: ${result.text}`);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
    }
    assert.ok((outcomes.get("ok") ?? 0) > 0, "some reads saw the plain file");
    assert.ok((outcomes.get("refused") ?? 0) > 0, "some reads saw the symlink and were refused");
  } finally {
    flipper.kill();
    await flipper.status;
    home.dispose();
  }
});
