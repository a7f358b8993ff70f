/**
 * The one process runner (exec, checks, gh, password_cmd, keychain): capped output, a timeout and
 * an abort that kill the whole process group, an optional stop at the cap, inherited or given
 * environment. Real subprocesses; no shell unless the argv names one.
 */
import assert from "node:assert/strict";
import { runProcess } from "../../../src/adapters/os/run_process.ts";
import { isProcessAlive } from "../../../src/adapters/os/process.ts";

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt++) {
    if (!isProcessAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

Deno.test("runProcess keeps maxOutputBytes of each stream, counts the rest and runs to the end", async () => {
  const result = await runProcess({
    argv: ["/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' a; echo done >&2"],
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 10_000,
    maxOutputBytes: 1000,
  });
  assert.equal(result.code, 0);
  assert.equal(result.stdout, "a".repeat(1000));
  assert.equal(result.stdoutCut, 99_000);
  assert.equal(result.stderr, "done\n", "the program was not stopped at the cap");
  assert.equal(result.timedOut, false);
});

Deno.test("runProcess with stopAtOutputCap stops an endless printer at the cap, not the timeout", async () => {
  const started = performance.now();
  const result = await runProcess({
    argv: ["yes", "endless"],
    timeoutMs: 20_000,
    maxOutputBytes: 64 * 1024,
    stopAtOutputCap: true,
  });
  assert.ok(performance.now() - started < 10_000, "stopped long before the timeout");
  assert.equal(result.timedOut, false);
  assert.equal(result.signal, "SIGKILL");
  assert.ok(result.stdoutCut > 0);
  assert.equal(result.stdout.length, 64 * 1024);
  assert.ok(result.stdout.startsWith("endless\nendless\n"));
});

Deno.test("runProcess's timeout kills the whole group: a background grandchild dies too", async () => {
  const started = performance.now();
  const result = await runProcess({
    argv: ["/bin/sh", "-c", "sleep 30 & echo $!; wait"],
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 300,
    maxOutputBytes: 1000,
  });
  assert.ok(performance.now() - started < 5000);
  assert.equal(result.timedOut, true);
  assert.equal(result.signal, "SIGKILL");
  const grandchild = Number(result.stdout.trim());
  assert.ok(grandchild > 0, result.stdout);
  assert.ok(await gone(grandchild), `sleep ${grandchild} outlived the timeout`);
});

Deno.test("runProcess's abort kills the group; env is inherited unless given (then it is all)", async () => {
  const controller = new AbortController();
  const running = runProcess({
    argv: ["sleep", "30"],
    timeoutMs: 20_000,
    maxOutputBytes: 1000,
    signal: controller.signal,
  });
  controller.abort();
  const aborted = await running;
  assert.equal(aborted.aborted, true);
  assert.equal(aborted.timedOut, false);

  const home = Deno.env.get("HOME") ?? "";
  const inherited = await runProcess({
    argv: ["/bin/sh", "-c", 'printf %s "$HOME"'],
    timeoutMs: 5000,
    maxOutputBytes: 1000,
  });
  assert.equal(inherited.stdout, home);
  const given = await runProcess({
    argv: ["/bin/sh", "-c", 'printf %s "${HOME:-none}"'],
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 5000,
    maxOutputBytes: 1000,
  });
  assert.equal(given.stdout, "none");
});

Deno.test("runProcess runs argv without a shell: metacharacters are one argument", async () => {
  const result = await runProcess({
    argv: ["printf", "%s", "a; touch pwned $(id)"],
    cwd: Deno.cwd(),
    timeoutMs: 5000,
    maxOutputBytes: 1000,
  });
  assert.equal(result.stdout, "a; touch pwned $(id)");
});
