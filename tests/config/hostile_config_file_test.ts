/**
 * Hostile config files: a "billion laughs" YAML gives exit 2 with one line (it was "unexpected
 * failure", exit 1), and `--config` naming a FIFO or device is refused at once (it hung).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { radarCommand } from "../helpers/radar_process.ts";

/** Runs radar, killing it after `seconds` (a hang fails the test instead of the suite). */
async function radarWithin(home: string, args: string[], seconds = 30) {
  const child = radarCommand(home, args).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), seconds * 1000);
  const output = await child.output();
  clearTimeout(timer);
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("a billion-laughs config is refused with exit 2 and one line", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-laughs-" });
  try {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let level = 1; level < 9; level++) {
      const name = String.fromCharCode(97 + level);
      const previous = `*${String.fromCharCode(96 + level)}`;
      levels.push(`${name}: &${name} [${Array(9).fill(previous).join(", ")}]`);
    }
    const path = join(home, "laughs.yaml");
    Deno.writeTextFileSync(path, `${levels.join("\n")}\n`);
    const run = await radarWithin(home, ["--config", path, "config", "show"]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.match(run.stderr, /^radar: Invalid config .*laughs\.yaml: .*alias/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("--config naming a FIFO or a device is refused without reading it", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-fifo-" });
  try {
    const fifo = join(home, "radar.yaml.fifo");
    const made = new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    assert.ok(made.success);
    for (const path of [fifo, "/dev/zero"]) {
      const run = await radarWithin(home, ["--config", path, "status"]);
      assert.equal(run.code, 2, `${path}: ${run.stderr}`);
      assert.equal(
        run.stderr,
        `radar: Cannot read config ${path}: not a regular file (a FIFO, socket or device)\n`,
      );
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
