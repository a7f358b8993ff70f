import assert from "node:assert/strict";
import { configSchema } from "../../src/config/schema.ts";
import { checkOutcome, maxEventChars } from "../../src/sources/checks/check_outcome.ts";
import { checkShellText } from "../../src/sources/checks/check_command.ts";
import { valueAtPath } from "../../src/sources/checks/json_path.ts";

Deno.test("checks config: json needs a path, names are unique, every is bounded", () => {
  const parse = (checks: unknown) => configSchema.safeParse({ checks });
  assert.equal(parse([{ name: "a", command: "true", event_on: "json" }]).success, false);
  assert.equal(
    parse([{ name: "a", command: "true" }, { name: "a", command: ["true"] }]).success,
    false,
  );
  assert.equal(parse([{ name: "a", command: "true", every_minutes: 0 }]).success, false);
  assert.equal(parse([{ name: "a", command: "true", every_minutes: 600_000 }]).success, false);
  assert.equal(parse([{ name: "a b", command: "true" }]).success, false);
  assert.equal(parse([{ name: "a", command: "true", timeout_seconds: 601 }]).success, false);
  const ok = parse([{ name: "a", command: ["echo", "x"] }]);
  assert.ok(ok.success);
  assert.equal(ok.data.checks[0].every_minutes, 15);
});

Deno.test("checks: an argv reaches the program word for word (no shell expansion)", async () => {
  const words = ["$(id)", "a b", "x;y", "'quoted'", "*", "`whoami`", "\\n"];
  const text = checkShellText(["printf", "%s\\n", ...words]);
  const output = await new Deno.Command("/bin/sh", { args: ["-c", text] }).output();
  assert.deepEqual(new TextDecoder().decode(output.stdout).split("\n").slice(0, -1), words);
  assert.equal(checkShellText("df -h / | tail -1"), "df -h / | tail -1");
});

Deno.test("checks: dotted JSON paths read objects and arrays, never prototypes", () => {
  const value = { a: { list: [{ state: "up" }] } };
  assert.equal(valueAtPath(value, "a.list.0.state"), "up");
  assert.equal(valueAtPath(value, "a.list.x"), undefined);
  assert.equal(valueAtPath(value, "a.constructor"), undefined);
  assert.equal(valueAtPath(value, "a.list.0.state.length"), undefined);
});

Deno.test("checks: event rules — baselines, bounded text, a non-JSON output fails", () => {
  const [check] = configSchema.parse({
    checks: [{ name: "j", command: "x", event_on: "json", json_path: "v" }],
  }).checks;
  const facts = (stdout: string) => ({
    exitCode: 0,
    stdout,
    stderr: "",
    outputHash: stdout,
    at: new Date("2026-11-23T10:00:00Z"),
    durationMs: 5,
  });
  const first = checkOutcome(check, undefined, facts('{"v": 1}'));
  assert.equal(first.event, undefined);
  const changed = checkOutcome(check, first.row, facts(`{"v": "${"x".repeat(5000)}"}`));
  assert.match(changed.event ?? "", /^j: v changed from 1 to "xxx/);
  assert.ok(changed.event!.length <= maxEventChars + 1);
  const broken = checkOutcome(check, changed.row, facts("<html>"));
  assert.equal(broken.failing, true);
  assert.match(broken.failure ?? "", /not JSON/);
  assert.equal(broken.row.jsonValue, changed.row.jsonValue);
});
