/** `radar status` names the browser the model can drive, or why there is none. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { browserStatusLines } from "../../src/cli/commands/browser_status.ts";
import { needing } from "../helpers/system_parts.ts";

async function statusWith(yaml: string): Promise<string[]> {
  const home = Deno.makeTempDirSync({ prefix: "radar-browser-status-" });
  Deno.writeTextFileSync(join(home, "radar.yaml"), yaml);
  const radar = await openRadar({
    configPath: join(home, "radar.yaml"),
    env: { HOME: home, RADAR_DATA_DIR: join(home, "data"), PATH: "/usr/bin:/bin" },
    cwd: home,
    logLevel: "error",
  });
  try {
    return await browserStatusLines(radar);
  } finally {
    radar.close();
    Deno.removeSync(home, { recursive: true });
  }
}

Deno.test(needing(["chromium"], {
  name: "radar status: the browser found, its profile and network, or why there is none",
}, async () => {
  const found = await statusWith("plugins:\n  enabled: false\n");
  assert.match(
    found[0],
    /^browser: {3}Chromium \(\/usr\/bin\/chromium, found\); a fresh temporary profile per session$/,
  );
  assert.match(found[1], /through Radar's guard, public addresses only; submits need a yes/);
  assert.match(found[2], /Chromium sandbox: (on|off \(Radar runs as root)/);
  const listed = await statusWith(
    'browser:\n  profile: "shopping"\n  allowed_hosts: ["192.168.1.1"]\nplugins:\n  enabled: false\n',
  );
  assert.match(listed[0], /profile shopping \(kept\)/);
  assert.match(listed[1], /public addresses plus 192\.168\.1\.1/);
  assert.deepEqual(
    await statusWith('browser:\n  executable: "/nope/chrome"\nplugins:\n  enabled: false\n'),
    [
      "browser:   none — browser.executable /nope/chrome is not an executable file",
    ],
  );
  assert.deepEqual(await statusWith("browser:\n  enabled: false\nplugins:\n  enabled: false\n"), [
    "browser:   none — off (browser.enabled: false)",
  ]);
}));

Deno.test(needing(["chromium"], {
  name: "without a browser there is no browser tool; with one it is on demand",
}, async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-browser-tool-" });
  Deno.writeTextFileSync(
    join(home, "off.yaml"),
    "browser:\n  enabled: false\nplugins:\n  enabled: false\n",
  );
  const open = (config: string | undefined) =>
    openRadar({
      configPath: config,
      env: { HOME: home, RADAR_DATA_DIR: join(home, "data"), PATH: "/usr/bin:/bin" },
      cwd: home,
      logLevel: "error",
    });
  const off = await open(join(home, "off.yaml"));
  const on = await open(undefined);
  try {
    assert.equal((await off.agentStack()).registry.get("browser"), undefined);
    assert.equal((await on.agentStack()).registry.get("browser")?.onDemand, true);
  } finally {
    off.close();
    on.close();
    Deno.removeSync(home, { recursive: true });
  }
}));
