/**
 * `deno task test [FILES…]`: the suite (default `tests/`) through `deno task test:deno` (the
 * test flags), then how many tests were skipped and why. Each skip is recorded by
 * tests/helpers/system_parts.ts in the file RADAR_TEST_SKIP_LOG names; exit code: the tests'.
 */

/** "Skipped 3 tests: 2 run only as root …; 1 needs chromium …", from the skip log's lines. */
export function skipSummary(log: string): string {
  const reasons = new Map<string, number>();
  for (const line of log.split("\n").filter(Boolean)) {
    const reason = line.split("\t")[0];
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const total = [...reasons.values()].reduce((sum, count) => sum + count, 0);
  if (!total) return "Skipped no tests.";
  const lines = [...reasons].sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `  ${count} × ${reason}`);
  return [`Skipped ${total} test${total === 1 ? "" : "s"}:`, ...lines].join("\n");
}

if (import.meta.main) {
  const log = Deno.makeTempFileSync({ prefix: "radar-test-skips-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "test:deno", ...(Deno.args.length ? Deno.args : ["tests/"])],
      env: { RADAR_TEST_SKIP_LOG: log },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const { code } = await child.status;
    console.log(`\n${skipSummary(Deno.readTextFileSync(log))}`);
    Deno.removeSync(log);
    Deno.exit(code);
  } catch (error) {
    Deno.removeSync(log);
    throw error;
  }
}
