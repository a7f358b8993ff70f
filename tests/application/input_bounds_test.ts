/**
 * Bounds that were missing on some paths (issue 11, failure 6): a one-shot task years ahead is
 * refused wherever it comes from (the CLI checked only four-digit years; the schedule tool and
 * the dashboard not at all), `radar stop --timeout` is a bounded whole number, and counts are
 * digits only ("0x10" and "1e3" were read as 16 and 1000).
 */
import assert from "node:assert/strict";
import { parseSchedule } from "../../src/application/task_schedule.ts";
import { runCli } from "../../src/cli/program.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const now = new Date("2026-11-23T10:00:00Z");

Deno.test("a one-shot task more than ten years ahead is refused by the schedule parser", () => {
  for (const at of ["9999-12-31 23:59", "2037-01-01 09:00", "+275760-09-13 00:00"]) {
    const parsed = parseSchedule({ at }, now);
    assert.ok("error" in parsed, `${at} was accepted: ${JSON.stringify(parsed)}`);
  }
  const soon = parseSchedule({ at: "2036-11-01 09:00" }, now);
  assert.ok(!("error" in soon), JSON.stringify(soon));
});

Deno.test("tasks.add (the tool's and dashboard's path) refuses a one-shot in year 9999", async () => {
  await withTestDaemon({ now: now.toISOString() }, async (daemon) => {
    const added = await daemon.runtime.tasks.add({
      at: "9999-12-31 23:59",
      message: "remind me",
      catchUp: "once_within_24h",
    });
    assert.ok("error" in added, JSON.stringify(added));
    assert.match(added.error, /within ten years/);
    assert.equal(daemon.runtime.tasks.list().length, 0);
  });
});

Deno.test("stop --timeout and list counts take bounded whole numbers only, exit 2", async () => {
  await withCliHome(async (env, home) => {
    const cases: Array<[string[], RegExp]> = [
      [["stop", "--timeout", "abc"], /--timeout must be a positive whole number/],
      [["stop", "--timeout", "-1"], /--timeout must be a positive whole number/],
      [["stop", "--timeout", "99999999999"], /--timeout must be at most 86400/],
      [["history", "--limit", "0x10"], /--limit must be a positive whole number/],
      [["memory", "list", "--limit", "1e3"], /--limit must be a positive whole number/],
    ];
    for (const [args, expected] of cases) {
      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(args, io), 2, `${args.join(" ")}: ${io.err.join("")}`);
      assert.equal(io.err.length, 1, io.err.join(""));
      assert.match(io.err[0], expected);
    }
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["stop", "--timeout", "5"], io), 0, io.err.join(""));
    assert.equal(io.out.join(""), "Radar is not running.\n");
  });
});
