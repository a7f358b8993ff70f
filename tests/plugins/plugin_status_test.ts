/** `radar status` shows plugin counts, hooks and the plugin host processes that run right now. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { pluginStatusLines } from "../../src/cli/commands/plugin_status.ts";
import { parsePluginHosts } from "../../src/sandbox/running_hosts.ts";
import { echoPlugin } from "./helpers.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";

Deno.test("parsePluginHosts() reads plugin hosts from ps output and nothing else", () => {
  const output = [
    "  101     1 /usr/bin/deno run --quiet --no-prompt /app/src/sandbox/host_process.ts --radar-plugin=feed_reader --radar-owner=00aa",
    "  102    50 /usr/local/bin/radar --radar-plugin-host --radar-plugin=text_utils --radar-owner=00aa",
    "  103    50 /usr/bin/prlimit --data=1 -- /usr/local/bin/radar --radar-plugin-host --radar-plugin=x --radar-owner=00aa",
    "  104    50 vim notes --radar-plugin=Bad-Name --radar-owner=00aa",
    "  105    50 /usr/bin/bash",
    "  106    60 /usr/local/bin/radar --radar-plugin-host --radar-plugin=theirs --radar-owner=00bb",
    "  107    60 /usr/local/bin/radar --radar-plugin-host --radar-plugin=old_radar",
    "garbage",
  ].join("\n");
  assert.deepEqual(parsePluginHosts(output, "00aa"), [
    { pid: 101, parentPid: 1, plugin: "feed_reader" },
    { pid: 102, parentPid: 50, plugin: "text_utils" },
  ]);
});

Deno.test("pluginStatusLines() counts plugins and lists the running hosts", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-plugin-status-" });
  Deno.writeTextFileSync(join(dir, "radar.yaml"), 'radar:\n  timezone: "UTC"\n');
  const runtime = await openRadar({
    configPath: join(dir, "radar.yaml"),
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock: new ManualClock(new Date("2026-11-23T10:00:00Z")),
    logLevel: "error",
    logWriters: [],
  });
  try {
    const plugins = (await runtime.plugins())!;
    for (const name of ["echoer", "waiting"]) {
      writeFolder(join(dir, "src", name), echoPlugin(name));
      plugins.manager.install(join(dir, "src", name));
    }
    await plugins.api.approve("echoer");
    assert.deepEqual((await pluginStatusLines(runtime, () => Promise.resolve([]))).slice(0, 2), [
      "plugins:   1 enabled, 0 disabled, 1 pending review, 0 failed",
      "  hooks: 0 before tool calls, 0 after; prompt variables: 0",
    ]);
    const execution = await (await runtime.agentStack()).registry.execute(
      { id: "1", name: "echoer_echo", arguments: '{"text":"hi"}' },
      {
        offered: new Set(["echoer_echo"]),
        context: { kind: "ask", interactive: false, signal: new AbortController().signal },
        maxResultChars: 100,
        elapsed: () => 0,
      },
    );
    assert.equal(execution.result.text, "echo hi");
    // Another Radar's host on the same machine (another data folder) is not this Radar's.
    const other = new Deno.Command("sh", {
      args: ["-c", "sleep 30", "sh", "--radar-plugin=intruder", "--radar-owner=0123456789abcdef"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const lines = await pluginStatusLines(runtime).finally(() => {
      other.kill("SIGKILL");
      return other.status;
    });
    assert.ok(!lines.join("\n").includes("intruder"), lines.join("\n"));
    const hostsLine = lines.find((line) => line.startsWith("  hosts running:"));
    assert.match(hostsLine ?? "", /echoer \(PID \d+\)/, lines.join("\n"));
    assert.ok(lines.some((line) => /radar plugin show NAME/.test(line)));
    assert.deepEqual(await pluginStatusLines(runtime, () => Promise.resolve(undefined)), [
      ...lines.slice(0, 2),
      "  hosts running: unknown (ps is not available)",
      ...lines.slice(3),
    ]);
  } finally {
    await (await runtime.plugins())?.stop();
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
