import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { radarCommand, runsUnderDenoCli } from "../../src/daemon/daemon_command.ts";
import { launchdPlist, serviceLocation, systemdUnit } from "../../src/daemon/service_files.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

const spec = {
  program: "/Users/ann/bin/radar",
  args: ["--config", "/Users/ann/My <Radar>/radar.yaml", "serve"],
  env: { RADAR_DATA_DIR: "/Users/ann/.local/share/radar", PATH: "/usr/bin:/bin" },
  errorLog: "/Users/ann/.local/share/radar/logs/service.err",
};

Deno.test("radarCommand() re-runs main.ts with the task flags under deno, the binary when compiled", () => {
  assert.ok(runsUnderDenoCli("/usr/local/bin/deno"));
  assert.ok(!runsUnderDenoCli("/Users/ann/bin/radar"));
  assert.deepEqual(
    radarCommand("/Users/ann/bin/radar", "file:///tmp/deno-compile-radar/main.ts", ["serve"]),
    {
      program: "/Users/ann/bin/radar",
      args: ["serve"],
    },
  );
  const dev = radarCommand("/usr/bin/deno", "file:///home/ann/radar%20src/main.ts", ["serve"]);
  assert.equal(dev.args[0], "run");
  assert.ok(dev.args.includes("--unstable-cron") && !dev.args.includes("-A"));
  assert.deepEqual(dev.args.slice(-2), ["/home/ann/radar src/main.ts", "serve"]);
  assert.ok(
    dev.args.includes("--v8-flags=--max-semi-space-size=2"),
    "the daemon's small new space",
  );
  const other = radarCommand("/usr/bin/deno", "file:///home/ann/radar/main.ts", ["status"]);
  assert.ok(!other.args.some((arg) => arg.startsWith("--v8-flags")));
});

Deno.test("launchdPlist() escapes arguments and restarts only after a crash", () => {
  const plist = launchdPlist(spec);
  assert.match(plist, /<key>Label<\/key>\n {2}<string>dev\.radar\.daemon<\/string>/);
  assert.match(
    plist,
    /<string>\/Users\/ann\/My &lt;Radar&gt;\/radar\.yaml<\/string>\n {4}<string>serve<\/string>/,
  );
  assert.match(plist, /<key>SuccessfulExit<\/key>\n {4}<false\/>/);
  assert.match(
    plist,
    /<key>RADAR_DATA_DIR<\/key>\n {4}<string>\/Users\/ann\/\.local\/share\/radar<\/string>/,
  );
  assert.doesNotMatch(plist, /<Radar>/);
});

Deno.test("systemdUnit() quotes ExecStart words and escapes % and $", () => {
  const unit = systemdUnit({ ...spec, args: ["--config", "/home/ann/100% $HOME.yaml", "serve"] });
  assert.match(
    unit,
    /^ExecStart="\/Users\/ann\/bin\/radar" "--config" "\/home\/ann\/100%% \$\$HOME\.yaml" "serve"$/m,
  );
  assert.match(unit, /^Environment="RADAR_DATA_DIR=\/Users\/ann\/\.local\/share\/radar"$/m);
  assert.match(unit, /^Restart=on-failure$/m);
  assert.match(unit, /^WantedBy=default\.target$/m);
  assert.equal(
    serviceLocation("linux", "/home/ann")?.path,
    "/home/ann/.config/systemd/user/radar.service",
  );
  assert.equal(
    serviceLocation("darwin", "/Users/ann")?.load,
    "launchctl load -w /Users/ann/Library/LaunchAgents/dev.radar.daemon.plist",
  );
  assert.equal(serviceLocation("windows", "C:\\"), undefined);
});

Deno.test(needing([onLinux], {
  name: "radar service install/status/uninstall writes the user unit and prints the load command",
  fn: async () => {
    const home = Deno.makeTempDirSync({ prefix: "radar-service-" });
    const env = { HOME: home, RADAR_DATA_DIR: join(home, "data"), PATH: "/usr/bin" };
    const run = async (...args: string[]) => {
      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(args, io), 0, io.err.join(""));
      return io.out.join("");
    };
    try {
      const installed = await run("service", "install");
      const path = join(home, ".config", "systemd", "user", "radar.service");
      assert.equal(
        installed,
        `Wrote ${path}\nLoad it with:\n  systemctl --user daemon-reload && systemctl --user enable --now radar.service\n`,
      );
      assert.match(Deno.readTextFileSync(path), /"serve"\n/);
      // The daemon's allocator setting (a busy daemon's RSS, see daemonEnvironment).
      assert.match(Deno.readTextFileSync(path), /^Environment="MALLOC_ARENA_MAX=2"$/m);
      assert.match(await run("service", "status"), /service: installed .*\ndaemon: +not running/);
      assert.match(await run("service", "uninstall"), /Removed .*systemctl --user disable --now/s);
      assert.match(await run("service", "status"), /not installed/);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
}));
